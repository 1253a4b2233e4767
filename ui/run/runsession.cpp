#include "ui/run/runsession.h"

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

bool RunSession::start(std::vector<Scenario> scenarios, RunOptions options)
{
    if (m_running)
        return false;
    join(); // the previous run's thread has already delivered its outcome
    m_controller = std::make_unique<RunController>(std::move(scenarios), std::move(options));
    m_running = true;
    RunController *controller = m_controller.get();
    m_thread = std::thread([controller, this] {
        auto result = controller->run();
        std::shared_ptr<const RunOutcome> outcome;
        QString error;
        if (result)
            outcome = std::make_shared<const RunOutcome>(std::move(result).value());
        else
            error = QString::fromStdString(result.error().message);
        // Queued to the GUI thread; the destructor joins this thread first, so `this` outlives it.
        QMetaObject::invokeMethod(
            this,
            [this, outcome, error] {
                m_running = false;
                emit finished(outcome, error);
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

QString RunSession::runId() const
{
    return m_controller ? QString::fromStdString(m_controller->runId()) : QString();
}

} // namespace Throughline
