#pragma once
// The run monitor: start / stop sending / cancel, progress per scenario and overall with ETA,
// achieved vs target load, errors by class, a client-bound warning, four live plots fed from the
// engine's LiveSnapshot on a ~10 Hz QTimer (never a signal per sample) and a results table with
// verdict and validity badges, and a points table + curve filled point by point as the engine
// finishes each load point. Runs go through core/run/campaignrun.h as `throughline-cli run` does: recorded
// in the history database point by point, judged once on the run's thread. Lives in the GUI thread; the
// engine runs on RunSession's thread.

#include "core/campaign/scenario.h"
#include "core/run/campaignrun.h"

#include <QElapsedTimer>
#include <QWidget>

#include <memory>

class QAction;
class QLabel;
class QProgressBar;
class QTableView;
class QTimer;

namespace Throughline {

class CampaignDocument;
class CurvePlot;
class LiveRunData;
class MlperfRunControls;
class RunPointsModel;
class RunResultsModel;
class RunSession;
class ThemeController;
class TimeSeriesPlot;

class RunPage : public QWidget
{
    Q_OBJECT
public:
    RunPage(CampaignDocument *document, ThemeController *theme, const QString &databasePath,
            QWidget *parent = nullptr);
    ~RunPage() override;

    // The app injects how simulated endpoints start (throughline_ui cannot link the simulator).
    void setSimLauncher(SimLauncher launcher) { m_simLauncher = std::move(launcher); }
    void setWorkers(int workers) { m_workers = workers; }
    // Live-sample bucket width of the time-series plots (seconds of run clock).
    void setBucketS(double seconds);

    QList<QAction *> runActions() const;
    bool isRunning() const;
    // Asks before closing during a run; cancels it when the user agrees.
    bool confirmClose();

    CurvePlot *curvePlot() const { return m_curve; }
    TimeSeriesPlot *latencyPlot() const { return m_latency; }
    TimeSeriesPlot *throughputPlot() const { return m_throughput; }
    TimeSeriesPlot *inFlightPlot() const { return m_inFlight; }
    // Server telemetry of the running scenario (RunController::liveTelemetry on the same timer):
    // KV-cache usage (%, right axis), running and waiting requests. Series indices below.
    enum TelemetrySeriesIndex { KvCacheSeries, RunningSeries, WaitingSeries };
    TimeSeriesPlot *telemetryPlot() const { return m_telemetry; }
    // Shown instead of the telemetry plot when the scenario has none (scraping off or failing).
    QLabel *telemetryHint() const { return m_telemetryHint; }
    RunResultsModel *resultsModel() const { return m_results; }
    RunPointsModel *pointsModel() const { return m_points; }
    // Storage of the last run: "" while running; the run id once recorded; the failure otherwise.
    bool lastRunRecorded() const { return m_recorded; }
    QString lastRecordNote() const { return m_recordNote; }
    std::shared_ptr<const RunOutcome> lastOutcome() const { return m_outcome; }
    // Hang detector: the largest lateness of the ~10 Hz UI timer during the last run (ms).
    double maxTimerLatenessMs() const { return m_maxLatenessMs; }
    double maxReplotMs() const { return m_maxReplotMs; }
    QString engineState() const { return m_engineState; }
    // MLPerf Endpoints mode (the toolbar's switch, the checks panel).
    MlperfRunControls *mlperfControls() const { return m_mlperf; }

public slots:
    bool start(); // false when nothing to run or already running (reason in the status label)
    void stopSending();
    void cancel();

signals:
    void runStarted();
    void runFinished(bool ok);
    void engineStateChanged(const QString &state);
    // The finished run is in the history database at `databasePath` (emitted before runFinished).
    void runRecorded(const QString &runId, const QString &databasePath);

private:
    void poll();
    void finish(std::shared_ptr<const CampaignRun::Finished> done, const QString &error);
    void pointFinished(int scenario, int point, const PointResult &result, bool aborted);
    void setEngineState(const QString &state);
    void updateActions();
    void updateCurve();
    void markPointFinished(int scenario, int point);
    void pollTelemetry(int scenarioIndex);

    CampaignDocument *m_document;
    ThemeController *m_theme;
    QString m_databasePath;
    SimLauncher m_simLauncher;
    int m_workers = 0;
    RunSession *m_session;
    std::unique_ptr<LiveRunData> m_data;
    std::vector<Scenario> m_scenarios;
    std::vector<double> m_timeScales; // per scenario: simulator time scale (1 for real endpoints)
    std::shared_ptr<const RunOutcome> m_outcome;
    QTimer *m_timer;
    QElapsedTimer m_tick;
    double m_maxLatenessMs = 0;
    double m_maxReplotMs = 0;
    std::int64_t m_telemetrySinceNs = 0; // newest telemetry sample plotted (run clock, ns)
    int m_telemetryScenario = -1;
    bool m_telemetrySeen = false; // the current scenario delivered at least one plotted sample
    int m_lastScenario = -1;
    int m_lastPoint = -1;
    QList<QPair<int, int>> m_finishedPoints; // (scenario, point) pairs finished according to progress
    QString m_engineState;
    bool m_stopping = false; // stop sending requested: in-flight requests are finishing
    // The point running when "Stop sending" was pressed (live progress), unless it had already reported
    // finished; -1 = none. Points of that scenario after it never sent a measured request.
    int m_stopScenario = -1;
    int m_stopPoint = -1;
    bool m_recorded = false;
    QString m_recordNote;

    MlperfRunControls *m_mlperf;
    QAction *m_startAct;
    QAction *m_stopAct;
    QAction *m_cancelAct;
    QLabel *m_status;
    QLabel *m_loadLabel;
    QLabel *m_errorsLabel;
    QLabel *m_clientBound;
    QLabel *m_clientBudget; // the client's error budget of the finished run (worst point, wall clock)
    QProgressBar *m_overall;
    QProgressBar *m_scenario;
    CurvePlot *m_curve;
    TimeSeriesPlot *m_latency;
    TimeSeriesPlot *m_throughput;
    TimeSeriesPlot *m_inFlight;
    TimeSeriesPlot *m_telemetry;
    QLabel *m_telemetryHint;
    RunResultsModel *m_results;
    QTableView *m_table;
    RunPointsModel *m_points;
    QTableView *m_pointsTable;
};

} // namespace Throughline
