// Events dated at their arrival, not at their reading (core/engine/receivestamp.h): a token written while the
// worker's thread is held up elsewhere — here in a completion callback that sleeps 60 ms, standing in for a
// worker busy with thousands of ready sockets or waiting for a CPU — carries its arrival time on the direct
// path (the kernel's receive stamp), and the time it was read on libcurl's path (which reads the socket
// itself and has no stamps). Both rows run, so the test shows the difference it claims: the libcurl row
// must see the hold-up, the direct row must not. Causality on both: no event is dated before its write.
#include "core/engine/receivestamp.h"
#include "core/engine/worker.h"
#include "rawhttpserver.h"

#include <curl/curl.h>

#include <QTest>

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <thread>

using namespace Throughline;

namespace {
std::string chunk(const std::string &s)
{
    char size[32];
    std::snprintf(size, sizeof size, "%zx\r\n", s.size());
    return size + s + "\r\n";
}

std::string contentEvent(const std::string &text)
{
    return R"(data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":")" +
           text + R"("},"finish_reason":null}]})" + "\n\n";
}

const std::string kHeaders =
    "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n";
constexpr auto kHold = std::chrono::milliseconds(60);

// Waits on the server's thread (no Qt event loop there), up to 5 s.
void waitFor(const std::atomic<bool> &flag)
{
    for (int i = 0; i < 5000 && !flag; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

// A loopback TCP pair whose client end asks for stamps (Unix stream sockets carry none). The kernel turns
// stamping on machine-wide a moment after the first socket asks (a deferred switch) and off again after the
// last one closes: segments that arrive while it is off carry no stamp, and the engine times those reads
// when it makes them.
struct StampedPair {
    int listener = -1;
    int client = socket(AF_INET, SOCK_STREAM, 0);
    int server = -1;
    StampedPair()
    {
        sockaddr_in a{};
        listener = listenOnLoopback(a, 1);
        ::connect(client, reinterpret_cast<sockaddr *>(&a), sizeof a);
        server = accept(listener, nullptr, nullptr);
        enableReceiveStamps(client);
    }
    ~StampedPair()
    {
        close(server);
        close(client);
        close(listener);
    }
    // Until a segment comes stamped (1 s at most); keeping the pair open keeps stamping on.
    bool waitUntilStampsOn()
    {
        char b[8];
        for (int i = 0; i < 100; ++i) {
            if (send(server, "w", 1, 0) != 1)
                return false;
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
            if (receiveStamped(client, b, sizeof b).stampRealNs > 0)
                return true;
        }
        return false;
    }
};
} // namespace

class TestReceiveStamps : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { curl_global_init(CURL_GLOBAL_ALL); }
    void stampsAreRealtimeOfArrival();
    void eventsDatedAtArrival_data();
    void eventsDatedAtArrival();
};

void TestReceiveStamps::stampsAreRealtimeOfArrival()
{
    StampedPair pair;
    QVERIFY2(pair.waitUntilStampsOn(), "no receive stamp within 1 s");
    StampClock clock;
    const auto t0 = std::chrono::steady_clock::now();
    auto now = [&] {
        return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0)
            .count();
    };
    const std::int64_t before = now();
    QCOMPARE(send(pair.server, "x", 1, 0), ssize_t(1));
    std::this_thread::sleep_for(std::chrono::milliseconds(30)); // read 30 ms late
    clock.calibrate(now);
    char b[8];
    const StampedRead r = receiveStamped(pair.client, b, sizeof b);
    QCOMPARE(r.bytes, ssize_t(1));
    QVERIFY(r.stampRealNs > 0);
    const double arrivedMs = double(clock.toCallerNs(r.stampRealNs) - before) / 1e6;
    QVERIFY2(arrivedMs >= 0 && arrivedMs < 10, qPrintable(QString::number(arrivedMs)));
    QCOMPARE(receiveStamped(pair.client, b, sizeof b).bytes, ssize_t(-1)); // nothing left: EAGAIN
}

void TestReceiveStamps::eventsDatedAtArrival_data()
{
    QTest::addColumn<int>("readPath");
    QTest::newRow("direct-http1") << int(Endpoint::ReadPath::Auto);
    QTest::newRow("libcurl") << int(Endpoint::ReadPath::Libcurl);
}

void TestReceiveStamps::eventsDatedAtArrival()
{
    QFETCH(int, readPath);
    StampedPair stampsOn; // the worker's sockets then get stamps from their first segment
    QVERIFY2(stampsOn.waitUntilStampsOn(), "no receive stamp within 1 s");
    const auto t0 = Worker::Clock::now();
    auto sinceT0 = [&] {
        return std::chrono::duration_cast<std::chrono::nanoseconds>(Worker::Clock::now() - t0).count();
    };
    std::atomic<bool> headSent{false}, held{false}, released{false};
    std::atomic<std::int64_t> secondWriteNs{-1};

    // The stream: headers and a first token at once; the second while the worker is held; the end after.
    RawHttpServer stream;
    stream.setResponseParts({kHeaders + chunk(contentEvent("a")), chunk(contentEvent("b")),
                             chunk("data: [DONE]\n\n") + "0\r\n\r\n"},
                            [&](std::size_t part) {
                                if (part == 1) {
                                    headSent = true;
                                    waitFor(held);
                                    std::this_thread::sleep_for(std::chrono::milliseconds(5));
                                    secondWriteNs =
                                        sinceT0(); // just before the write: the event cannot arrive earlier
                                } else if (part == 2) {
                                    waitFor(released);
                                }
                            });
    // A short request whose completion holds the worker's thread.
    RawHttpServer quick;
    quick.setResponse(
        "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Length: 14\r\n\r\ndata: [DONE]\n\n");

    std::mutex mutex;
    std::vector<RequestRecord> done;
    Worker worker(0, t0, [&](RequestRecord &&r, std::uint64_t, int) {
        if (r.seq == 1) {
            held = true;
            std::this_thread::sleep_for(kHold);
            released = true;
        }
        std::lock_guard lock(mutex);
        done.push_back(std::move(r));
    });
    worker.start();
    auto opts = std::make_shared<TransferOptions>();
    opts->readPath = static_cast<Endpoint::ReadPath>(readPath);
    auto submit = [&](int port, std::uint64_t seq) {
        WorkItem w;
        w.request.url = "http://127.0.0.1:" + std::to_string(port) + "/v1/chat/completions";
        w.request.body = R"({"model":"m","stream":true})";
        w.request.headers = {"Content-Type: application/json", "Accept: text/event-stream"};
        w.record.seq = seq;
        w.record.tSched = worker.nowNs();
        w.options = opts;
        worker.submit(std::move(w));
    };
    submit(stream.port(), 0);
    QVERIFY(QTest::qWaitFor([&] { return headSent.load(); }, 5000));
    submit(quick.port(), 1);
    QVERIFY(QTest::qWaitFor(
        [&] {
            std::lock_guard lock(mutex);
            return done.size() == 2;
        },
        10000));
    worker.stop();

    const RequestRecord &r = done[0].seq == 0 ? done[0] : done[1];
    QCOMPARE(r.error, ErrorClass::None);
    std::vector<std::int64_t> contentTimes;
    for (const StreamEvent &e : r.events)
        if (e.kind == StreamEvent::Kind::Content)
            contentTimes.push_back(e.tNs);
    QCOMPARE(contentTimes.size(), std::size_t(2));
    const double lateMs = double(contentTimes[1] - secondWriteNs.load()) / 1e6;
    qInfo("%s: the token written during the %lld ms hold-up is dated %.3f ms after its write",
          QTest::currentDataTag(), static_cast<long long>(kHold.count()), lateMs);
    // The event store keeps µs: allow that much below the write.
    QVERIFY2(lateMs >= -0.001, "an event dated before it was written");
    if (opts->readPath == Endpoint::ReadPath::Auto)
        QVERIFY2(lateMs < 5.0, "the direct path dated the event when it read it, not when it arrived");
    else
        QVERIFY2(lateMs > 30.0, "libcurl's path should show the hold-up (the test would prove nothing)");
}

QTEST_GUILESS_MAIN(TestReceiveStamps)
#include "tst_receivestamps.moc"
