#pragma once
// One run of the engine for the GUI. RunController::run() blocks, so it runs on a dedicated
// std::thread; the GUI polls live() (thread-safe LiveSnapshot) on its timer, receives each finished
// load point through pointFinished() and the outcome once through finished(), both marshalled to the
// GUI thread. Cancel and stop-sending are cooperative; the destructor cancels and joins. The object
// itself lives in the GUI thread.

#include "core/engine/runcontroller.h"

#include <QObject>
#include <QString>

#include <functional>
#include <memory>
#include <thread>

namespace Throughline {

class RunSession : public QObject
{
    Q_OBJECT
public:
    // Runs on the run's thread after run() succeeded, before finished(): e.g. storage. It may trim the
    // outcome (raw records); its answer is handed to finished() as `note`.
    using AfterRun = std::function<QString(RunOutcome &outcome)>;

    explicit RunSession(QObject *parent = nullptr);
    ~RunSession() override;

    // Starts a run; false when one is already running. Any options.onPointFinished is kept and called
    // first (on the run thread).
    bool start(std::vector<Scenario> scenarios, RunOptions options, AfterRun afterRun = {});
    void cancel();
    void stopSending(); // no new requests; in-flight ones finish, the run ends after the current point
    bool isRunning() const { return m_running; }
    // Valid while a run exists (also after it finished, until the next start()).
    LiveSnapshot *live() const { return m_controller ? &m_controller->live() : nullptr; }
    QString runId() const;
    // Server telemetry of the scenario being run, samples after sinceNs (wall run clock, not time-scaled);
    // empty between scenarios, when not scraping, or without a run. A thread-safe copy (GUI timer).
    TelemetrySnapshot liveTelemetry(std::int64_t sinceNs) const;

signals:
    // Once per finished load point, in order (GUI thread). `aborted`: the point hit the error-rate limit.
    void pointFinished(int scenarioIndex, int pointIndex, const Throughline::PointResult &point,
                       bool aborted);
    // Exactly once per start(). `outcome` is null when the run failed before starting (error set);
    // `note` is AfterRun's answer.
    void finished(std::shared_ptr<const Throughline::RunOutcome> outcome, const QString &error,
                  const QString &note);

private:
    void join();

    std::unique_ptr<RunController> m_controller;
    std::thread m_thread;
    bool m_running = false;
};

} // namespace Throughline
