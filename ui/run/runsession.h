#pragma once
// One run of the engine for the GUI. RunController::run() blocks, so it runs on a dedicated
// std::thread; the GUI polls live() (thread-safe LiveSnapshot) on its timer and receives the
// outcome once through finished(), marshalled to the GUI thread. Cancel is cooperative; the
// destructor cancels and joins. The object itself lives in the GUI thread.

#include "core/engine/runcontroller.h"

#include <QObject>

#include <memory>
#include <thread>

namespace Throughline {

class RunSession : public QObject
{
    Q_OBJECT
public:
    explicit RunSession(QObject *parent = nullptr);
    ~RunSession() override;

    // Starts a run; false when one is already running.
    bool start(std::vector<Scenario> scenarios, RunOptions options);
    void cancel();
    bool isRunning() const { return m_running; }
    // Valid while a run exists (also after it finished, until the next start()).
    LiveSnapshot *live() const { return m_controller ? &m_controller->live() : nullptr; }
    QString runId() const;

signals:
    // Exactly once per start(). `outcome` is null when the run failed before starting (error set).
    void finished(std::shared_ptr<const Throughline::RunOutcome> outcome, const QString &error);

private:
    void join();

    std::unique_ptr<RunController> m_controller;
    std::thread m_thread;
    bool m_running = false;
};

} // namespace Throughline
