#pragma once
// One run of a campaign for the GUI, through the same pipeline as `throughline-cli run` (CampaignRun:
// recorded point by point, judged once). CampaignRun::run() blocks, so it runs on a dedicated std::thread;
// the GUI polls live() (thread-safe LiveSnapshot) on its timer, receives each finished load point through
// pointFinished() and the judged outcome once through finished(), both marshalled to the GUI thread.
// Cancel and stop-sending are cooperative; the destructor cancels and joins. The object itself lives in
// the GUI thread.

#include "core/run/campaignrun.h"

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
    explicit RunSession(QObject *parent = nullptr);
    ~RunSession() override;

    // Starts a run; false when one is already running. Any setup.options.onPointFinished is kept and
    // called on the run thread.
    bool start(CampaignRun::Setup setup);
    void cancel();
    void stopSending(); // no new requests; in-flight ones finish, the run ends after the current point
    bool isRunning() const { return m_running; }
    // Valid while a run exists (also after it finished, until the next start()).
    LiveSnapshot *live() const { return m_run ? &m_run->controller().live() : nullptr; }
    QString runId() const;
    // Server telemetry of the scenario being run, samples after sinceNs (wall run clock, not time-scaled);
    // empty between scenarios, when not scraping, or without a run. A thread-safe copy (GUI timer).
    TelemetrySnapshot liveTelemetry(std::int64_t sinceNs) const;

signals:
    // Once per finished load point, in order (GUI thread). `aborted`: the point hit the error-rate limit.
    void pointFinished(int scenarioIndex, int pointIndex, const Throughline::PointResult &point,
                       bool aborted);
    // Exactly once per start(). `done` (outcome, judged results, recording error) is null when the run
    // failed before starting (error set).
    void finished(std::shared_ptr<const Throughline::CampaignRun::Finished> done, const QString &error);

private:
    void join();

    std::unique_ptr<CampaignRun> m_run;
    std::thread m_thread;
    bool m_running = false;
};

} // namespace Throughline
