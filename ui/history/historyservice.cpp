#include "ui/history/historyservice.h"

#include "ui/history/historyloads.h"

#include <QMetaObject>

namespace Throughline {

HistoryService::HistoryService(QObject *parent)
    : QObject(parent)
{
    m_worker = std::thread([this] { workerMain(); });
}

HistoryService::~HistoryService()
{
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
        m_queue.clear();
    }
    m_wake.notify_all();
    m_worker.join();
}

int HistoryService::pending() const
{
    std::lock_guard lock(m_mutex);
    return int(m_queue.size()) + m_running;
}

bool HistoryService::latest(const Key &key, std::uint64_t generation) const
{
    std::lock_guard lock(m_mutex);
    const auto it = m_generation.find(key);
    return it != m_generation.end() && it->second == generation;
}

void HistoryService::supersede(Channel channel, const std::string &key)
{
    std::lock_guard lock(m_mutex);
    ++m_generation[{channel, key}];
}

void HistoryService::post(Key key, std::function<std::function<void()>()> run)
{
    {
        std::lock_guard lock(m_mutex);
        const std::uint64_t generation = ++m_generation[key];
        m_queue.push_back(Job{std::move(key), generation, std::move(run)});
    }
    m_wake.notify_one();
}

void HistoryService::workerMain()
{
    for (;;) {
        Job job;
        {
            std::unique_lock lock(m_mutex);
            m_wake.wait(lock, [this] { return m_stop || !m_queue.empty(); });
            if (m_stop)
                return;
            job = std::move(m_queue.front());
            m_queue.pop_front();
            if (m_generation[job.key] != job.generation)
                continue; // superseded before it started
            ++m_running;
        }
        std::function<void()> deliver = job.run();
        QMetaObject::invokeMethod(
            this,
            [this, job = std::move(job), deliver = std::move(deliver)] {
                {
                    std::lock_guard lock(m_mutex);
                    --m_running;
                }
                if (!latest(job.key, job.generation)) {
                    ++m_dropped;
                    return;
                }
                ++m_delivered;
                deliver();
            },
            Qt::QueuedConnection);
    }
}

void HistoryService::listRuns(const QString &dbPath, QObject *receiver,
                              std::function<void(Result<std::vector<RunSummary>>)> done)
{
    request(
        Channel::RunList, receiver, [path = dbPath.toStdString()] { return HistoryLoads::runs(path); },
        std::move(done));
}

} // namespace Throughline
