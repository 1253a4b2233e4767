#include "ui/pages/runpage.h"

#include "core/campaign/campaignhash.h"
#include "core/campaign/campaignvalidator.h"
#include "core/campaign/catalog.h"
#include "core/campaign/matrixexpander.h"
#include "core/engine/loadschedule.h"
#include "core/metrics/metricdefinitions.h"
#include "core/targets/targettable.h"
#include "core/targets/verdict.h"
#include "core/telemetry/commonseries.h"
#include "ui/document/campaigndocument.h"
#include "ui/models/roles.h"
#include "ui/models/runpointsmodel.h"
#include "ui/models/runresultsmodel.h"
#include "ui/plots/curveplot.h"
#include "ui/plots/timeseriesplot.h"
#include "ui/run/liverundata.h"
#include "ui/run/mlperfpanel.h"
#include "ui/run/mlperfruncontrols.h"
#include "ui/run/runsession.h"
#include "ui/settings/themecontroller.h"

#include <QAction>
#include <QDir>
#include <QFileInfo>
#include <QLocale>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLoggingCategory>
#include <QMessageBox>
#include <QProgressBar>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStyle>
#include <QTableView>
#include <QTimer>
#include <QToolBar>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <utility>

Q_LOGGING_CATEGORY(lcRunPage, "throughline.ui.run")

namespace Throughline {

namespace {

constexpr int kTickMs = 100; // ~10 Hz: the live pipeline's only clock

QString formatDuration(double s)
{
    if (s < 0)
        return QStringLiteral("–");
    const int total = int(std::lround(s));
    if (total >= 3600)
        return QStringLiteral("%1:%2:%3")
            .arg(total / 3600)
            .arg(total / 60 % 60, 2, 10, QLatin1Char('0'))
            .arg(total % 60, 2, 10, QLatin1Char('0'));
    return QStringLiteral("%1:%2").arg(total / 60).arg(total % 60, 2, 10, QLatin1Char('0'));
}

// One-sentence definition of a metric (resources/catalog/metric_definitions.json), for tooltips.
QString definition(const std::string &metric, const std::string &stat = {})
{
    return QString::fromStdString(MetricDefinitions::builtin().describe(metric, stat));
}

// Closed live buckets into the latency (TTFT/TPOT p50/p90) and throughput plots.
void appendBuckets(TimeSeriesPlot *latency, TimeSeriesPlot *throughput,
                   const std::vector<LiveRunData::SeriesPoint> &closed)
{
    std::vector<double> t, ttft50, ttft90, tpot50, tpot90, tps;
    for (const auto &b : closed) {
        t.push_back(b.tS);
        ttft50.push_back(b.ttftP50Ms);
        ttft90.push_back(b.ttftP90Ms);
        tpot50.push_back(b.tpotP50Ms);
        tpot90.push_back(b.tpotP90Ms);
        tps.push_back(b.outputTps);
    }
    latency->append(0, t, ttft50);
    latency->append(1, t, ttft90);
    latency->append(2, t, tpot50);
    latency->append(3, t, tpot90);
    throughput->append(0, t, tps);
}

// The first series of `name` (source 0 first: one server; replicas' own sources are not summed here).
const TelemetrySeries *firstSeries(const TelemetrySnapshot &snap, const char *name)
{
    if (const TelemetrySeries *s = snap.find(name, 0))
        return s;
    return snap.find(name);
}

} // namespace

RunPage::RunPage(CampaignDocument *document, ThemeController *theme, const QString &databasePath,
                 QWidget *parent)
    : QWidget(parent)
    , m_document(document)
    , m_theme(theme)
    , m_databasePath(databasePath)
    , m_session(new RunSession(this))
    , m_data(std::make_unique<LiveRunData>(1.0))
    , m_timer(new QTimer(this))
    , m_mlperf(new MlperfRunControls(this))
    , m_startAct(new QAction(style()->standardIcon(QStyle::SP_MediaPlay), tr("&Start Run"), this))
    , m_stopAct(
          new QAction(style()->standardIcon(QStyle::SP_MediaPause), tr("Stop &Sending New Requests"), this))
    , m_cancelAct(new QAction(style()->standardIcon(QStyle::SP_MediaStop), tr("&Cancel Run"), this))
    , m_status(new QLabel(tr("Ready."), this))
    , m_loadLabel(new QLabel(this))
    , m_errorsLabel(new QLabel(this))
    , m_clientBound(new QLabel(this))
    , m_clientBudget(new QLabel(this))
    , m_overall(new QProgressBar(this))
    , m_scenario(new QProgressBar(this))
    , m_curve(new CurvePlot(this))
    , m_latency(new TimeSeriesPlot(tr("Latency percentiles"), tr("ms"), this))
    , m_throughput(new TimeSeriesPlot(tr("Throughput"), tr("output tokens/s"), this))
    , m_inFlight(new TimeSeriesPlot(tr("In-flight requests"), tr("requests"), this))
    , m_telemetry(new TimeSeriesPlot(tr("Server: KV cache and queue"), tr("requests"), this))
    , m_telemetryHint(new QLabel(this))
    , m_results(new RunResultsModel(this))
    , m_table(new QTableView(this))
    , m_points(new RunPointsModel(this))
    , m_pointsTable(new QTableView(this))
{
    setObjectName(QStringLiteral("RunPage"));
    m_startAct->setObjectName(QStringLiteral("startRun"));
    m_startAct->setShortcut(Qt::Key_F5);
    m_startAct->setToolTip(tr("Expand the campaign and run every scenario (F5)"));
    m_stopAct->setObjectName(QStringLiteral("stopSending"));
    m_stopAct->setShortcut(Qt::Key_F6);
    m_stopAct->setToolTip(tr("Send no new requests; let in-flight ones finish, then end the run after "
                             "the current load point (F6). Nothing is cancelled."));
    m_cancelAct->setObjectName(QStringLiteral("cancelRun"));
    m_cancelAct->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F5));
    m_cancelAct->setToolTip(tr("Cancel now: in-flight requests end as harness-cancelled (Shift+F5)"));
    connect(m_startAct, &QAction::triggered, this, &RunPage::start);
    connect(m_stopAct, &QAction::triggered, this, &RunPage::stopSending);
    connect(m_cancelAct, &QAction::triggered, this, &RunPage::cancel);
    for (QAction *a : {m_startAct, m_stopAct, m_cancelAct})
        a->setShortcutContext(Qt::WindowShortcut);

    auto *toolbar = new QToolBar(this);
    toolbar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    toolbar->addActions({m_startAct, m_stopAct, m_cancelAct});
    toolbar->addSeparator();
    toolbar->addWidget(m_mlperf->toolbarWidget());

    m_overall->setObjectName(QStringLiteral("overallProgress"));
    m_scenario->setObjectName(QStringLiteral("scenarioProgress"));
    m_overall->setFormat(tr("Overall %p%"));
    m_scenario->setFormat(tr("Scenario %p%"));
    m_status->setObjectName(QStringLiteral("runStatus"));
    m_loadLabel->setObjectName(QStringLiteral("loadLabel"));
    m_loadLabel->setToolTip(
        tr("Achieved load (requests in flight, finished requests/s) against the point's target"));
    m_errorsLabel->setObjectName(QStringLiteral("errorsLabel"));
    m_clientBound->setObjectName(QStringLiteral("clientBoundWarning"));
    m_clientBound->setWordWrap(true);
    m_clientBound->setStyleSheet(
        QStringLiteral("QLabel { background: #fff3cd; color: #664d03; padding: 4px; border-radius: 3px; }"));
    m_clientBound->hide();
    m_clientBudget->setObjectName(QStringLiteral("clientBudget"));
    m_clientBudget->setWordWrap(true);
    m_clientBudget->setToolTip(
        tr("The client's own error budget, in wall-clock time whatever the simulator's time scale: how "
           "long its send path was blocked (a request due for more than 5 ms and not yet sent), and the "
           "delay it added to what it read (p99 of ready sockets waiting in its workers plus its threads' "
           "average wait for a CPU). A point blocked for more than 5 % of it and 100 ms, or with more than "
           "5 ms added, is client_bound."));
    m_clientBudget->hide();

    m_latency->setObjectName(QStringLiteral("latencyPlot"));
    m_latency->addSeries(tr("TTFT p50"));
    m_latency->addSeries(tr("TTFT p90"), true);
    m_latency->addSeries(tr("TPOT p50"));
    m_latency->addSeries(tr("TPOT p90"), true);
    m_latency->setToolTip(tr("Per second of run time, over requests finishing in it.") + u'\n' +
                          definition("ttft_ms") + u'\n' + definition("tpot_ms"));
    m_throughput->setObjectName(QStringLiteral("throughputPlot"));
    m_throughput->addSeries(tr("output tokens/s (by completion)"));
    m_throughput->setToolTip(
        tr("Output tokens of requests finishing in each second. The steady-state output_tps of "
           "a point is computed from content-event times after the point.") +
        u'\n' + definition("output_tps"));
    m_curve->setToolTip(tr("One point per finished load point: x = output tokens/s per GPU, y = 1000 ÷ "
                           "TPOT p90 (tokens/s per user).") +
                        u'\n' + definition("output_tps_per_gpu") + u'\n' + definition("tpot_ms", "p90"));
    m_inFlight->setObjectName(QStringLiteral("inFlightPlot"));
    m_inFlight->addSeries(tr("in flight"));
    m_inFlight->setWindowS(300);
    m_telemetry->setObjectName(QStringLiteral("telemetryPlot"));
    // In the order of RunPage::TelemetrySeriesIndex.
    m_telemetry->addRightSeries(tr("KV cache %"), tr("KV cache (%)"));
    m_telemetry->addSeries(tr("running"));
    m_telemetry->addSeries(tr("waiting"), true);
    m_telemetry->setWindowS(300);
    m_telemetry->setRightAxisMax(100);
    m_telemetry->setToolTip(tr("Scraped from the server's metrics endpoint on the run's telemetry "
                               "interval (wall clock): requests in the running batch, requests "
                               "queued, and KV-cache usage in % (right axis)."));
    m_telemetryHint->setObjectName(QStringLiteral("telemetryHint"));
    m_telemetryHint->setAlignment(Qt::AlignCenter);
    m_telemetryHint->setWordWrap(true);
    m_telemetryHint->setEnabled(false); // greyed: a note, not a control
    m_telemetryHint->hide();

    auto *proxy = new QSortFilterProxyModel(this);
    proxy->setSourceModel(m_results);
    m_table->setObjectName(QStringLiteral("resultsTable"));
    m_table->setModel(proxy);
    m_table->verticalHeader()->hide();
    m_table->setAlternatingRowColors(true);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);

    auto *pointsProxy = new QSortFilterProxyModel(this);
    pointsProxy->setSourceModel(m_points);
    pointsProxy->setSortRole(Roles::Sort);
    m_pointsTable->setObjectName(QStringLiteral("pointsTable"));
    m_pointsTable->setModel(pointsProxy);
    m_pointsTable->verticalHeader()->hide();
    m_pointsTable->setAlternatingRowColors(true);
    m_pointsTable->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_pointsTable->horizontalHeader()->setStretchLastSection(true);
    m_pointsTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    // ResizeToContents measures when a row is inserted, before the view lays the new row out, so a wider
    // value in it ("C=16" after "C=8") was elided: measure again once the row is in place.
    for (QTableView *view : {m_table, m_pointsTable})
        connect(
            view->model(), &QAbstractItemModel::rowsInserted, view,
            [view] { view->resizeColumnsToContents(); }, Qt::QueuedConnection);

    auto *progress = new QGridLayout;
    progress->addWidget(m_overall, 0, 0);
    progress->addWidget(m_scenario, 0, 1);
    progress->addWidget(m_status, 1, 0);
    progress->addWidget(m_loadLabel, 1, 1);
    progress->addWidget(m_errorsLabel, 2, 0, 1, 2);

    auto *plots = new QWidget(this);
    auto *grid = new QGridLayout(plots);
    grid->setContentsMargins(0, 0, 0, 0);
    // The curve, the main result, spans both rows; the four time series beside it.
    grid->addWidget(m_curve, 0, 0, 2, 1);
    grid->addWidget(m_latency, 0, 1);
    grid->addWidget(m_throughput, 0, 2);
    grid->addWidget(m_inFlight, 1, 1);
    grid->addWidget(m_telemetry, 1, 2);
    grid->addWidget(m_telemetryHint, 1, 2);
    grid->setColumnStretch(0, 4);
    grid->setColumnStretch(1, 3);
    grid->setColumnStretch(2, 3);

    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(plots);
    auto *tables = new QSplitter(Qt::Horizontal, this);
    tables->addWidget(m_table);
    tables->addWidget(m_pointsTable);
    tables->addWidget(m_mlperf->panel());
    tables->setStretchFactor(2, 2); // the rules' checks and charts need the room more than the tables
    split->addWidget(tables);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(toolbar);
    layout->addLayout(progress);
    layout->addWidget(m_clientBound);
    layout->addWidget(m_clientBudget);
    layout->addWidget(split, 1);

    m_timer->setInterval(kTickMs);
    m_timer->setTimerType(Qt::PreciseTimer);
    connect(m_timer, &QTimer::timeout, this, &RunPage::poll);
    connect(m_session, &RunSession::finished, this, &RunPage::finish);
    connect(m_session, &RunSession::pointFinished, this, &RunPage::pointFinished);
    setEngineState(tr("idle"));
    updateActions();
}

RunPage::~RunPage() = default;

void RunPage::setBucketS(double seconds)
{
    if (!isRunning())
        m_data = std::make_unique<LiveRunData>(seconds);
}

QList<QAction *> RunPage::runActions() const
{
    return {m_startAct, m_stopAct, m_cancelAct};
}

bool RunPage::isRunning() const
{
    return m_session->isRunning();
}

void RunPage::updateActions()
{
    const bool running = isRunning();
    m_startAct->setEnabled(!running);
    m_stopAct->setEnabled(running && !m_stopping);
    m_cancelAct->setEnabled(running);
    m_mlperf->setRunning(running);
}

void RunPage::setEngineState(const QString &state)
{
    if (state == m_engineState)
        return;
    m_engineState = state;
    emit engineStateChanged(state);
}

bool RunPage::confirmClose()
{
    if (!isRunning())
        return true;
    const auto answer =
        QMessageBox::question(this, tr("Run in progress"), tr("A run is in progress. Cancel it and close?"));
    if (answer != QMessageBox::Yes)
        return false;
    cancel();
    return true;
}

bool RunPage::start()
{
    if (isRunning())
        return false;
    const Campaign &c = m_document->campaign();
    const Catalog &catalog = Catalog::builtin();
    const std::string text =
        canonicalCampaignText(c); // what is validated, stored and hashed (campaignhash.h)
    const auto outcome = CampaignValidator(catalog).validate(text);
    if (!outcome.problems.empty()) {
        m_status->setText(tr("The campaign has %n problem(s); fix them in the designer first.", nullptr,
                             int(outcome.problems.size())));
        return false;
    }
    auto scenarios = MatrixExpander(catalog).expand(c);
    if (!scenarios || scenarios->empty()) {
        m_status->setText(
            scenarios
                ? tr("Nothing to run: the matrix is empty.")
                : tr("Cannot expand the matrix: %1").arg(QString::fromStdString(scenarios.error().message)));
        return false;
    }
    m_scenarios = *scenarios;
    if (QString refusal; !m_mlperf->plan(m_scenarios, &refusal)) { // the rules' points, or why not
        m_status->setText(refusal);
        return false;
    }
    m_timeScales.clear();
    for (const Scenario &s : m_scenarios)
        m_timeScales.push_back(s.endpoint.kind == Endpoint::Kind::Simulated ? s.endpoint.sim.timeScale : 1.0);

    // Targets loaded once: curve markers now, verdicts on the run's thread (CampaignRun).
    const QString docPath = m_document->filePath();
    const std::string baseDir = !docPath.isEmpty() && !docPath.startsWith(u':')
                                    ? QFileInfo(docPath).absolutePath().toStdString()
                                    : "";
    auto targets = loadRunTargets(c, baseDir, m_databasePath.toStdString()); // with targets.baseline_run
    if (!targets) {
        m_status->setText(
            tr("Cannot load the target table: %1").arg(QString::fromStdString(targets.error().message)));
        return false;
    }
    CampaignRun::Setup setup;
    setup.scenarios = m_scenarios;
    setup.campaignName = c.name;
    setup.campaignText = text;
    setup.targets = *targets;
    setup.historyDb = m_databasePath.toStdString(); // recorded point by point, as `throughline-cli run` does
    setup.source = "throughline";
    setup.keepRecordsAfterRun = false;  // stored in the history; the page shows aggregates only
    setup.releaseRecordedPoints = true; // and memory stays at about one point during a long run
    setup.options.workers = m_workers;
    setup.options.simLauncher = m_simLauncher;
    setup.options.keepRecords = !m_databasePath.isEmpty();

    std::vector<int> planned;
    QStringList names;
    QList<CurvePlot::Marker> markers;
    QList<double> floors;
    for (const Scenario &s : m_scenarios) {
        planned.push_back(plannedPointCount(s.plan));
        names << QString::fromStdString(s.id);
        if (s.slo.tpotMs > 0 && !floors.contains(1000.0 / s.slo.tpotMs)) {
            floors << 1000.0 / s.slo.tpotMs;
            markers << CurvePlot::Marker{false, 1000.0 / s.slo.tpotMs,
                                         tr("TPOT p%1 ≤ %2 ms").arg(s.slo.percentile).arg(s.slo.tpotMs)};
        }
    }
    // Throughput targets from the campaign's target table, as vertical markers.
    for (const Scenario &s : m_scenarios)
        for (const TargetRow &row : targets->rowsFor(s))
            if (row.metric == "output_tps_per_gpu")
                markers << CurvePlot::Marker{
                    true, row.value,
                    tr("%1 target %2").arg(QString::fromUtf8(targetKindKey(row.kind))).arg(row.value)};
    m_results->setScenarios(m_scenarios, planned);
    m_points->reset(names);
    m_stopping = false;
    m_stopScenario = m_stopPoint = -1;
    m_recorded = false;
    m_recordNote.clear();
    m_data->reset();
    m_curve->clear();
    m_curve->setSeriesNames(names);
    m_curve->setMarkers(markers);
    for (TimeSeriesPlot *p : {m_latency, m_throughput, m_inFlight, m_telemetry})
        p->clear();
    m_telemetrySinceNs = 0;
    m_telemetryScenario = -1;
    m_telemetrySeen = false;
    m_outcome.reset();
    m_finishedPoints.clear();
    m_lastScenario = m_lastPoint = -1;
    m_maxLatenessMs = m_maxReplotMs = 0;
    m_clientBound->hide();
    m_clientBudget->hide();
    m_errorsLabel->clear();
    m_overall->setValue(0);
    m_scenario->setValue(0);

    m_mlperf->attach(setup);
    if (!m_session->start(std::move(setup)))
        return false;
    m_status->setText(tr("Starting %n scenario(s)…", nullptr, int(m_scenarios.size())));
    setEngineState(tr("running"));
    m_tick.start();
    m_timer->start();
    updateActions();
    emit runStarted();
    return true;
}

void RunPage::stopSending()
{
    if (!isRunning() || m_stopping)
        return;
    m_stopping = true;
    m_session->stopSending();
    if (LiveSnapshot *live = m_session->live()) {
        const LiveProgress p = live->progress();
        m_stopScenario = p.scenarioIndex;
        m_stopPoint = p.pointIndex;
        // Already reported finished (stopped between points): only a later point can be cut short.
        for (int i = 0; i < m_points->rowCount(); ++i)
            if (m_points->row(i).scenarioIndex == m_stopScenario &&
                m_points->row(i).pointIndex == m_stopPoint)
                ++m_stopPoint;
    }
    setEngineState(tr("finishing in-flight requests"));
    m_status->setText(tr("Stop sending: finishing in-flight requests…"));
    updateActions();
}

void RunPage::pointFinished(int scenario, int point, const PointResult &result, bool aborted)
{
    m_mlperf->addPoint(scenario, result);
    m_points->addPoint(scenario, point, result, aborted);
    m_results->addLivePoint(scenario, result);
    markPointFinished(scenario, point);
    updateCurve();
}

void RunPage::cancel()
{
    if (!isRunning())
        return;
    m_session->cancel();
    setEngineState(tr("cancelling"));
    m_status->setText(tr("Cancelling: in-flight requests end as harness-cancelled…"));
}

void RunPage::markPointFinished(int scenario, int point)
{
    if (scenario < 0 || point < 0 || m_finishedPoints.contains({scenario, point}))
        return;
    m_finishedPoints << qMakePair(scenario, point);
    m_data->finishPoint(scenario, point);
    int done = 0;
    for (const auto &p : std::as_const(m_finishedPoints))
        done += p.first == scenario ? 1 : 0;
    m_results->setLivePointsDone(scenario, done);
    updateCurve();
}

void RunPage::updateCurve()
{
    QList<CurvePlot::Point> pts;
    if (m_outcome) {
        for (const ScenarioOutcome &so : m_outcome->scenarios)
            for (const PointOutcome &po : so.points)
                if (auto pt = CurvePlot::pointOf(so.scenarioIndex, po.result))
                    pts << *pt;
    } else {
        // During the run: the engine's aggregates of every point finished so far (RunSession::pointFinished).
        for (int i = 0; i < m_points->rowCount(); ++i) {
            const RunPointsModel::Row &r = m_points->row(i);
            if (auto pt = CurvePlot::pointOf(r.scenarioIndex, r.point))
                pts << *pt;
        }
    }
    m_curve->setPoints(pts);
}

void RunPage::poll()
{
    // Hang detector: how late this tick fired relative to the previous one.
    const double sinceMs = double(m_tick.nsecsElapsed()) / 1e6;
    m_tick.restart();
    m_maxLatenessMs = std::max(m_maxLatenessMs, sinceMs - kTickMs);

    LiveSnapshot *live = m_session->live();
    if (!live)
        return;
    const auto closed = m_data->ingest(live->takeSamples(), m_timeScales);
    const LiveProgress p = live->progress();

    if (!closed.empty()) {
        appendBuckets(m_latency, m_throughput, closed);
    }
    if (p.running && p.elapsedS > 0)
        m_inFlight->append(0, {p.elapsedS}, {double(p.inFlight)});
    pollTelemetry(p.scenarioIndex);
    for (TimeSeriesPlot *plot : {m_latency, m_throughput, m_inFlight, m_telemetry}) {
        plot->refresh();
        m_maxReplotMs = std::max(m_maxReplotMs, plot->lastReplotMs());
    }
    m_maxReplotMs = std::max(m_maxReplotMs, m_curve->lastReplotMs());

    // A new (scenario, point) means the previous one finished.
    if ((p.scenarioIndex != m_lastScenario || p.pointIndex != m_lastPoint) && m_lastScenario >= 0)
        markPointFinished(m_lastScenario, m_lastPoint);
    if (p.scenarioIndex != m_lastScenario) {
        if (m_lastScenario >= 0)
            m_results->setState(m_lastScenario, RunResultsModel::State::Done);
        if (p.scenarioIndex >= 0)
            m_results->setState(p.scenarioIndex, RunResultsModel::State::Running);
    }
    m_lastScenario = p.scenarioIndex;
    m_lastPoint = p.pointIndex;

    if (p.plannedRequests > 0)
        m_overall->setValue(int(std::min<std::uint64_t>(100, p.finishedRequests * 100 / p.plannedRequests)));
    else if (p.plannedIssueWallS > 0) // planned by time: duration-bounded points
        m_overall->setValue(int(std::min(100.0, 100.0 * p.elapsedS / p.plannedIssueWallS)));
    if (p.scenarioIndex >= 0 && p.scenarioIndex < int(m_scenarios.size())) {
        const Scenario &sc = m_scenarios[size_t(p.scenarioIndex)];
        const int nPoints = std::max(1, plannedPointCount(sc.plan));
        double fraction = 0;
        if (const auto *acc = m_data->point(p.scenarioIndex, p.pointIndex)) {
            // Requests the point sends, warm-up included (the live counts include it), by the engine's rules.
            const double budget = p.load.mode == PointLoad::Mode::Rate
                                      ? openLoopBudget(sc.plan, p.load.rate).total()
                                      : closedBudget(sc.plan, std::max(1, p.load.concurrency)).total();
            // A duration-bounded point's budget is only a cap: it counts by whole points.
            fraction = budget > 0 && plannedIssueSeconds(sc.plan) <= 0
                           ? std::min(1.0, (acc->ok + acc->failed) / budget)
                           : 0;
        }
        m_scenario->setValue(int(100.0 * std::min(1.0, (std::max(0, p.pointIndex) + fraction) / nPoints)));
        m_status->setText(tr("Scenario %1/%2 %3 · %4 · elapsed %5 · ETA %6")
                              .arg(p.scenarioIndex + 1)
                              .arg(p.scenarioCount)
                              .arg(QString::fromStdString(p.scenarioId), QString::fromStdString(p.pointLabel),
                                   formatDuration(p.elapsedS), formatDuration(p.etaS)));
        if (!m_stopping)
            setEngineState(tr("running %1/%2").arg(p.scenarioIndex + 1).arg(p.scenarioCount));
        // Achieved vs target: in flight against C, finished requests/s from the last closed bucket.
        const double rate = closed.empty() ? -1 : closed.back().requestRate;
        const bool rateMode = p.load.mode == PointLoad::Mode::Rate;
        QString text = tr("In flight %1").arg(p.inFlight);
        if (!rateMode && p.load.concurrency > 0)
            text = tr("In flight %1 of target %2").arg(p.inFlight).arg(p.load.concurrency);
        if (rate >= 0)
            text += tr(" · %1 req/s finished").arg(rate, 0, 'f', 1);
        if (rateMode)
            text += tr(" (target %1)").arg(QStringLiteral("%1/s").arg(p.load.rate));
        m_loadLabel->setText(text);
    }
    if (m_stopping)
        m_status->setText(
            tr("Stop sending: finishing in-flight requests… (%n in flight)", nullptr, int(p.inFlight)));
    const auto &errors = m_data->errorsByClass();
    if (!errors.empty()) {
        QStringList parts;
        for (const auto &[k, n] : errors)
            parts << tr("%1: %2").arg(QString::fromStdString(k)).arg(n);
        m_errorsLabel->setText(tr("Errors by class — %1").arg(parts.join(u", ")));
    }
}

void RunPage::pollTelemetry(int scenarioIndex)
{
    if (scenarioIndex != m_telemetryScenario) {
        m_telemetryScenario = scenarioIndex;
        m_telemetrySeen = false;
    }
    if (scenarioIndex < 0 || scenarioIndex >= int(m_scenarios.size()))
        return;
    // Only samples newer than the last plotted one are copied (the scraper keeps the scenario's series).
    const TelemetrySnapshot snap = m_session->liveTelemetry(m_telemetrySinceNs);
    const TelemetrySeries *kv = firstSeries(snap, CommonSeries::kKvCacheUsage);
    const TelemetrySeries *running = firstSeries(snap, CommonSeries::kRunning);
    const TelemetrySeries *waiting = firstSeries(snap, CommonSeries::kWaiting);
    std::int64_t newest = m_telemetrySinceNs;
    auto plot = [&](int series, const TelemetrySeries *s, double factor) {
        if (!s || s->samples.empty())
            return;
        std::vector<double> t, v;
        t.reserve(s->samples.size());
        v.reserve(s->samples.size());
        for (const TelemetrySample &smp : s->samples) {
            t.push_back(double(smp.tNs) / 1e9);
            v.push_back(smp.value * factor);
            newest = std::max(newest, smp.tNs);
        }
        m_telemetry->append(series, t, v);
        m_telemetrySeen = true;
    };
    plot(KvCacheSeries, kv, 100.0); // ratio → %
    plot(RunningSeries, running, 1.0);
    plot(WaitingSeries, waiting, 1.0);
    m_telemetrySinceNs = newest;

    // Plot or a short hint why there is none: scraping off, every scrape failing, or no such series.
    const Scenario &sc = m_scenarios[size_t(scenarioIndex)];
    int ok = 0, failed = 0;
    QString lastError;
    for (const TelemetrySourceStatus &src : snap.sources) {
        ok += src.scrapesOk;
        failed += src.scrapesFailed;
        if (!src.lastError.empty())
            lastError = QString::fromStdString(src.lastError);
    }
    QString hint;
    if (sc.endpoint.telemetryIntervalS <= 0)
        hint = tr("No server telemetry: scraping is off for this endpoint (telemetry interval 0).");
    else if (!m_telemetrySeen && ok == 0 && failed >= 3)
        hint = tr("No server telemetry: every scrape failed (%1).").arg(lastError);
    else if (!m_telemetrySeen && ok >= 3)
        hint = tr("No server telemetry: the server's metrics have no KV-cache or queue series.");
    if (hint.isEmpty() != m_telemetryHint->isHidden() || hint != m_telemetryHint->text()) {
        m_telemetryHint->setText(hint);
        m_telemetryHint->setVisible(!hint.isEmpty());
        m_telemetry->setVisible(hint.isEmpty());
    }
}

void RunPage::finish(std::shared_ptr<const CampaignRun::Finished> done, const QString &error)
{
    // Aliases `done`: the outcome lives as long as the page keeps it.
    const std::shared_ptr<const RunOutcome> outcome =
        done ? std::shared_ptr<const RunOutcome>(done, &done->run) : nullptr;
    const QString note = done ? QString::fromStdString(done->recordError) : QString();
    poll(); // drain the last samples
    m_timer->stop();
    const auto closed = m_data->flush();
    if (!closed.empty()) {
        appendBuckets(m_latency, m_throughput, closed);
        m_latency->refresh();
        m_throughput->refresh();
    }
    m_outcome = outcome;
    m_mlperf->runFinished();
    const bool stopped = std::exchange(m_stopping, false);
    if (!outcome) {
        m_status->setText(tr("Run failed: %1").arg(error));
        setEngineState(tr("failed"));
        updateActions();
        emit runFinished(false);
        return;
    }

    // Verdicts as the run judged them (CampaignRun: SLOs + targets, once; the same the history stores).
    bool clientBound = false;
    QStringList boundPoints;
    double worstBlockedPct = -1, worstAddedMs = -1; // over the run's points; < 0: none measured
    for (std::size_t si = 0; si < outcome->scenarios.size(); ++si) {
        const ScenarioOutcome &so = outcome->scenarios[si];
        std::vector<PointResult> points;
        for (const PointOutcome &po : so.points) {
            points.push_back(po.result);
            if (!std::isnan(po.result.client.sendBlockedPct))
                worstBlockedPct = std::max(worstBlockedPct, po.result.client.sendBlockedPct);
            if (!std::isnan(po.result.client.addedDelayP99Ms))
                worstAddedMs = std::max(worstAddedMs, po.result.client.addedDelayP99Ms);
            const auto &flags = po.result.validity.flags;
            if (std::find(flags.begin(), flags.end(), std::string(ValidityFlag::ClientBound)) !=
                flags.end()) {
                clientBound = true;
                boundPoints << QString::fromStdString(so.scenario.id);
            }
        }
        const Verdict &verdict = done->results.scenarios[si].verdict;
        // Stopped (not cancelled): the scenario running at the stop is shown with its measured figures
        // and a "stopped" note, never as pass/fail; the point cut short is marked in the points table.
        const bool stoppedHere = stopped && !outcome->cancelled && so.aborted &&
                                 so.scenarioIndex == outcome->scenarios.back().scenarioIndex;
        if (stoppedHere) {
            for (const PointOutcome &po : so.points)
                if ((so.scenarioIndex == m_stopScenario && po.pointIndex >= m_stopPoint) ||
                    so.scenarioIndex > m_stopScenario)
                    m_points->markStopped(so.scenarioIndex, po.pointIndex);
            m_results->setState(so.scenarioIndex, RunResultsModel::State::Stopped,
                                QString::fromStdString(so.abortReason));
        } else if (so.aborted) {
            m_results->setState(so.scenarioIndex, RunResultsModel::State::Aborted,
                                QString::fromStdString(so.abortReason));
        }
        m_results->setResults(so.scenarioIndex, std::move(points), verdict);
    }
    // Scenarios the run never reached (stopped, cancelled or failed before them).
    for (int i = int(outcome->scenarios.size()); i < m_results->rowCount(); ++i)
        m_results->setState(i, RunResultsModel::State::NotRun);
    if (clientBound) {
        boundPoints.removeDuplicates();
        m_clientBound->setText(
            tr("⚠ Client-bound: the load generator itself limited the measurement in %1 "
               "(CPU, blocked send path, added delay or achieved load below target). Use more workers or "
               "a bigger client.")
                .arg(boundPoints.join(u", ")));
        m_clientBound->show();
    }
    if (worstBlockedPct >= 0 && worstAddedMs >= 0) {
        m_clientBudget->setText(
            tr("Client error budget (wall clock, worst point): send path blocked "
               "%1 % of the point, added delay %2 ms (p99).")
                .arg(QLocale().toString(worstBlockedPct, 'f', 2), QLocale().toString(worstAddedMs, 'f', 2)));
        m_clientBudget->show();
    }
    updateCurve();
    m_overall->setValue(outcome->cancelled ? m_overall->value() : 100);
    if (!outcome->cancelled)
        m_scenario->setValue(100);
    const QString runId = QString::fromStdString(outcome->runId);
    QString text = outcome->cancelled ? tr("Cancelled. Run %1.").arg(runId)
                   : stopped          ? tr("Stopped after in-flight requests finished. Run %1.").arg(runId)
                                      : tr("Finished. Run %1.").arg(runId);
    if (m_databasePath.isEmpty()) {
        m_recordNote = tr("no history database");
    } else {
        m_recorded = note.isEmpty();
        m_recordNote = m_recorded ? runId : note;
        text += u' ' + (m_recorded ? tr("Recorded in the history.")
                                   : tr("Not recorded in the history: %1").arg(note));
        if (!m_recorded)
            qCWarning(lcRunPage) << "history:" << note;
    }
    m_status->setText(text);
    setEngineState(outcome->cancelled ? tr("cancelled") : stopped ? tr("stopped") : tr("finished"));
    qCInfo(lcRunPage) << "run finished; max UI-timer lateness" << m_maxLatenessMs << "ms, max replot"
                      << m_maxReplotMs << "ms";
    updateActions();
    if (m_recorded)
        emit runRecorded(runId, m_databasePath);
    emit runFinished(!outcome->cancelled);
}

} // namespace Throughline
