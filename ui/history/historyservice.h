#pragma once
// History queries off the GUI thread: one worker thread runs read jobs (each opens its own HistoryReader,
// read-only, so it never blocks the writer) and hands results back on the GUI thread. Requests are grouped in
// channels; only the latest request of a channel delivers — an older one still queued is skipped, one already
// running is dropped when it finishes (hotspot's job pattern: a slow read never overwrites a newer one). A
// receiver gone before the answer is not touched. Injected into HistoryPage (MainWindow owns one), so tests
// and the app share the real thing; without one, the widgets run the same reads at once
// (HistoryService::run). The reads themselves are HistoryLoads' functions (values in, values out, no widget).

#include "core/storage/storagetypes.h"
#include "core/util/result.h"

#include <QObject>
#include <QPointer>

#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

namespace Throughline {

class HistoryService : public QObject
{
    Q_OBJECT
public:
    // One channel per kind of view a read fills; a channel's `key` splits it further (e.g. one run's row).
    enum class Channel {
        RunList,
        RunDetail,
        Variant,
        Distribution,
        Timeline,
        Compare,
        Report,
        RunRow,
        Breakdowns
    };

    explicit HistoryService(QObject *parent = nullptr);
    ~HistoryService() override; // finishes the running job, drops the queued ones

    // Runs `work` on the worker thread, then `done(result)` on the GUI thread — only while `receiver` is
    // alive and no newer request of (channel, key) was made (or the channel superseded) meanwhile.
    template <class Work, class Done>
    void request(Channel channel, QObject *receiver, Work work, Done done, const std::string &key = {})
    {
        using T = std::invoke_result_t<Work>;
        QPointer<QObject> alive(receiver);
        post({channel, key},
             [alive, work = std::move(work), done = std::move(done)]() -> std::function<void()> {
                 auto result = std::make_shared<T>(work());
                 return [alive, done, result] {
                     if (alive)
                         done(std::move(*result));
                 };
             });
    }
    // The same through `service` when there is one, else both parts at once on the calling thread.
    template <class Work, class Done>
    static void run(HistoryService *service, Channel channel, QObject *receiver, Work work, Done done,
                    const std::string &key = {})
    {
        if (service)
            service->request(channel, receiver, std::move(work), std::move(done), key);
        else
            done(work());
    }
    // Requests of the channel made so far no longer deliver (e.g. a point's samples once another run was
    // asked for).
    void supersede(Channel channel, const std::string &key = {});

    // The runs of `dbPath` (newest first), channel RunList. A missing file is an empty list.
    void listRuns(const QString &dbPath, QObject *receiver,
                  std::function<void(Result<std::vector<RunSummary>>)> done);

    int pending() const; // jobs queued or running (for tests)
    std::uint64_t delivered() const { return m_delivered; }
    std::uint64_t dropped() const { return m_dropped; }

private:
    using Key = std::pair<Channel, std::string>;
    struct Job {
        Key key;
        std::uint64_t generation = 0;
        std::function<std::function<void()>()> run; // worker part; returns the GUI part
    };
    void post(Key key, std::function<std::function<void()>()> run);
    void workerMain();
    bool latest(const Key &key, std::uint64_t generation) const;

    mutable std::mutex m_mutex;
    std::condition_variable m_wake;
    std::deque<Job> m_queue;
    std::map<Key, std::uint64_t> m_generation;
    int m_running = 0;
    bool m_stop = false;
    std::uint64_t m_delivered = 0, m_dropped = 0; // GUI thread only
    std::thread m_worker;
};

} // namespace Throughline
