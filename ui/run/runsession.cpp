#include "ui/run/runsession.h"

#include "core/engine/tokenizerpromptsource.h"

#include <QMetaObject>

namespace Throughline {

RunSession::RunSession(QObject *parent)
    : QObject(parent)
{
    qRegisterMetaType<std::shared_ptr<const CampaignRun::Finished>>(
        "std::shared_ptr<const Throughline::CampaignRun::Finished>");
}

RunSession::~RunSession()
{
    if (m_run)
        m_run->controller().cancel();
    join();
}

void RunSession::join()
{
    if (m_thread.joinable())
        m_thread.join();
}

bool RunSession::start(CampaignRun::Setup setup)
{
    if (m_running)
        return false;
    join(); // the previous run's thread has already delivered its outcome
    RunOptions &options = setup.options;
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
    m_run = std::make_unique<CampaignRun>(std::move(setup));
    m_running = true;
    CampaignRun *run = m_run.get();
    m_thread = std::thread([run, this] {
        auto result = run->run();
        std::shared_ptr<const CampaignRun::Finished> done;
        QString error;
        if (result)
            done = std::make_shared<const CampaignRun::Finished>(std::move(result).value());
        else
            error = QString::fromStdString(result.error().message);
        // Queued to the GUI thread after every pointFinished (same sender, same queue).
        QMetaObject::invokeMethod(
            this,
            [this, done, error] {
                m_running = false;
                emit finished(done, error);
            },
            Qt::QueuedConnection);
    });
    return true;
}

void RunSession::cancel()
{
    if (m_run && m_running)
        m_run->controller().cancel();
}

void RunSession::stopSending()
{
    if (m_run && m_running)
        m_run->controller().stopSending();
}

TelemetrySnapshot RunSession::liveTelemetry(std::int64_t sinceNs) const
{
    return m_run ? m_run->controller().liveTelemetry(sinceNs) : TelemetrySnapshot{};
}

QString RunSession::runId() const
{
    return m_run ? QString::fromStdString(m_run->controller().runId()) : QString();
}

} // namespace Throughline
