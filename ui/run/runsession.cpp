#include "ui/run/runsession.h"

#include "core/engine/tokenizerpromptsource.h"

#include <QMetaObject>

namespace Throughline {

RunSession::RunSession(QObject *parent)
    : QObject(parent)
{
    qRegisterMetaType<std::shared_ptr<const RunOutcome>>("std::shared_ptr<const Throughline::RunOutcome>");
}

RunSession::~RunSession()
{
    if (m_controller)
        m_controller->cancel();
    join();
}

void RunSession::join()
{
    if (m_thread.joinable())
        m_thread.join();
}

bool RunSession::start(std::vector<Scenario> scenarios, RunOptions options, AfterRun afterRun)
{
    if (m_running)
        return false;
    join(); // the previous run's thread has already delivered its outcome
    if (!options.prompts && !options.promptFactory) // exact ISL when the model's tokenizer is fetched
        options.promptFactory = exactPromptSourceFactory();
    // Per-point results: copied (aggregates only, never the raw records) and queued to the GUI thread.
    // The destructor joins the run thread before `this` goes away, so the queued calls have a live target.
    options.onPointFinished = [this, chained = std::move(options.onPointFinished)](const ScenarioOutcome &so,
                                                                                   const PointOutcome &po) {
        if (chained)
            chained(so, po);
        QMetaObject::invokeMethod(
            this,
            [this, s = so.scenarioIndex, p = po.pointIndex, result = po.result, aborted = po.aborted] {
                emit pointFinished(s, p, result, aborted);
            },
            Qt::QueuedConnection);
    };
    m_controller = std::make_unique<RunController>(std::move(scenarios), std::move(options));
    m_running = true;
    RunController *controller = m_controller.get();
    m_thread = std::thread([controller, this, afterRun = std::move(afterRun)] {
        auto result = controller->run();
        std::shared_ptr<const RunOutcome> outcome;
        QString error, note;
        if (result) {
            if (afterRun)
                note = afterRun(result.value());
            outcome = std::make_shared<const RunOutcome>(std::move(result).value());
        } else {
            error = QString::fromStdString(result.error().message);
        }
        // Queued to the GUI thread after every pointFinished (same sender, same queue).
        QMetaObject::invokeMethod(
            this,
            [this, outcome, error, note] {
                m_running = false;
                emit finished(outcome, error, note);
            },
            Qt::QueuedConnection);
    });
    return true;
}

void RunSession::cancel()
{
    if (m_controller && m_running)
        m_controller->cancel();
}

void RunSession::stopSending()
{
    if (m_controller && m_running)
        m_controller->stopSending();
}

TelemetrySnapshot RunSession::liveTelemetry(std::int64_t sinceNs) const
{
    return m_controller ? m_controller->liveTelemetry(sinceNs) : TelemetrySnapshot{};
}

QString RunSession::runId() const
{
    return m_controller ? QString::fromStdString(m_controller->runId()) : QString();
}

} // namespace Throughline
