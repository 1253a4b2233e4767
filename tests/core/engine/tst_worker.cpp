// Worker against a real loopback HTTP server: streaming timestamps, keep-alive reuse, error classes
// (HTTP status with redacted excerpt, disconnect, stall, malformed, server error event, connect refused,
// timeout before first token), cancel within 1 s, request building (headers, body per preset), sockets
// handed between the worker's two epoll sets over reused connections, and the default worker count.
// Every case runs on both read paths: ctest runs this binary as tst_worker (the direct HTTP/1.1 path, the
// default for plain http) and as tst_worker_libcurl (THROUGHLINE_TEST_READ_PATH=libcurl).
#include "core/engine/requestbuilder.h"
#include "core/engine/secrets.h"
#include "core/engine/processstats.h"
#include "core/engine/worker.h"
#include "ssetestserver.h"

#include <sched.h>

#include <QElapsedTimer>
#include <QTest>

#include <mutex>
#include <thread>

using namespace Throughline;

namespace {

Endpoint::ReadPath readPathUnderTest()
{
    return qgetenv("THROUGHLINE_TEST_READ_PATH") == "libcurl" ? Endpoint::ReadPath::Libcurl
                                                              : Endpoint::ReadPath::Auto;
}

RequestRecord::ReadPath expectedReadPath()
{
    return readPathUnderTest() == Endpoint::ReadPath::Libcurl ? RequestRecord::ReadPath::Libcurl
                                                              : RequestRecord::ReadPath::DirectHttp1;
}

} // namespace

class TestWorker : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();
    void streamsAndTimestamps();
    void errorClasses_data();
    void errorClasses();
    void connectRefused();
    void timeoutBeforeFirstToken();
    void cancelWithinOneSecond();
    void closeEachConnectionSpreadsSources();
    void requestBuilding();
    void redaction();
    void wavesOverReusedConnections();
    void usableCpuCountFollowsAffinity();
    void firstTokenPriorityReadOrder();

private:
    WorkItem item(const QByteArray &mode, int tokens, std::uint64_t seq, int intervalMs = 2);
    void waitFor(std::size_t n, int timeoutMs = 10000);

    std::unique_ptr<SseTestServer> m_server;
    std::unique_ptr<Worker> m_worker;
    quint16 m_port = 0;
    std::mutex m_mutex;
    std::vector<RequestRecord> m_done;
    std::shared_ptr<TransferOptions> m_opts;
};

void TestWorker::init()
{
    m_server = std::make_unique<SseTestServer>();
    m_port = m_server->listen();
    QVERIFY(m_port > 0);
    m_done.clear();
    m_opts = std::make_shared<TransferOptions>();
    m_opts->apiKey = "sk-test-SECRET-1234";
    m_opts->readPath = readPathUnderTest();
    m_worker =
        std::make_unique<Worker>(0, Worker::Clock::now(), [this](RequestRecord &&r, std::uint64_t, int) {
            std::lock_guard lock(m_mutex);
            m_done.push_back(std::move(r));
        });
    m_worker->start();
}

void TestWorker::cleanup()
{
    m_worker.reset();
    m_server.reset();
}

WorkItem TestWorker::item(const QByteArray &mode, int tokens, std::uint64_t seq, int intervalMs)
{
    WorkItem w;
    w.request.url = "http://127.0.0.1:" + std::to_string(m_port) + "/v1/chat/completions";
    w.request.body = R"({"model":"m","stream":true})";
    w.request.headers = {"Content-Type: application/json",
                         "X-Request-Id: run-" + std::to_string(seq),
                         "Authorization: Bearer sk-test-SECRET-1234",
                         "X-Test-Mode: " + mode.toStdString(),
                         "X-Test-Tokens: " + std::to_string(tokens),
                         "X-Test-Interval-Ms: " + std::to_string(intervalMs)};
    w.record.seq = seq;
    w.record.intendedOsl = tokens;
    w.record.tSched = m_worker->nowNs();
    w.options = m_opts;
    return w;
}

void TestWorker::waitFor(std::size_t n, int timeoutMs)
{
    QTRY_VERIFY_WITH_TIMEOUT(([&] {
                                 std::lock_guard lock(m_mutex);
                                 return m_done.size() >= n;
                             })(),
                             timeoutMs);
}

void TestWorker::streamsAndTimestamps()
{
    for (std::uint64_t i = 0; i < 4; ++i)
        m_worker->submit(item("ok", 20, i));
    waitFor(4);
    // A second wave reuses the kept-alive connections.
    for (std::uint64_t i = 4; i < 8; ++i)
        m_worker->submit(item("ok", 20, i));
    waitFor(8);
    QCOMPARE(m_server->connections(), 4);
    std::lock_guard lock(m_mutex);
    for (const RequestRecord &r : m_done) {
        QCOMPARE(r.error, ErrorClass::None);
        QCOMPARE(r.httpStatus, 200);
        QCOMPARE(r.httpVersion, 11);
        QCOMPARE(r.readPath, expectedReadPath());
        QVERIFY(r.tSched <= r.tSend);
        QVERIFY(r.tSend <= r.tWire);
        QVERIFY(r.tWire <= r.tFirstByte);
        QVERIFY(r.tFirstByte <= r.tEnd);
        int content = 0;
        std::int64_t prev = r.tFirstByte;
        for (const StreamEvent &e : r.events) {
            QVERIFY(e.tNs >= prev);
            prev = e.tNs;
            content += e.kind == StreamEvent::Kind::Content;
        }
        QCOMPARE(content, 20);
        QCOMPARE(r.nOut, 20);
        QCOMPARE(r.nOutSource, TokenCountSource::Usage);
        QVERIFY(r.curl.totalNs > 0);
        // 20 tokens at 2 ms: at least ~38 ms between first and last content event.
        QVERIFY(r.events.back().tNs - r.events.front().tNs > 30'000'000);
    }
    QCOMPARE(m_server->seen.size(), 8);
    QCOMPARE(m_server->seen[0].headers.value("x-request-id").left(4), QByteArray("run-"));
}

void TestWorker::errorClasses_data()
{
    QTest::addColumn<QByteArray>("mode");
    QTest::addColumn<int>("expected");
    QTest::newRow("status500") << QByteArray("status500") << int(ErrorClass::HttpStatus);
    QTest::newRow("disconnect") << QByteArray("disconnect") << int(ErrorClass::DisconnectMidStream);
    QTest::newRow("malformed") << QByteArray("malformed") << int(ErrorClass::MalformedStream);
    QTest::newRow("errorevent") << QByteArray("errorevent") << int(ErrorClass::ServerErrorEvent);
    QTest::newRow("stall") << QByteArray("stall") << int(ErrorClass::StallMidStream);
}

void TestWorker::errorClasses()
{
    QFETCH(QByteArray, mode);
    QFETCH(int, expected);
    m_opts->stallTimeoutS = 0.5;
    m_worker->submit(item(mode, 8, 1));
    m_worker->submit(item("ok", 8, 2)); // a failing request never stops others
    waitFor(2);
    std::lock_guard lock(m_mutex);
    for (const RequestRecord &r : m_done) {
        if (r.seq == 2) {
            QCOMPARE(r.error, ErrorClass::None);
            continue;
        }
        QCOMPARE(int(r.error), expected);
        QVERIFY(r.errorDetail.find("SECRET") == std::string::npos);
        if (mode == "status500") {
            QCOMPARE(r.httpStatus, 500);
            QVERIFY(r.errorDetail.find("overloaded") != std::string::npos);
            QVERIFY(r.errorDetail.find("Bearer ***") != std::string::npos);
        }
    }
}

void TestWorker::connectRefused()
{
    WorkItem w = item("ok", 4, 9);
    w.request.url = "http://127.0.0.1:1/v1/chat/completions";
    m_worker->submit(std::move(w));
    waitFor(1);
    QCOMPARE(m_done[0].error, ErrorClass::Connect);
}

void TestWorker::timeoutBeforeFirstToken()
{
    m_opts->firstTokenTimeoutS = 0.5;
    m_worker->submit(item("slowfirst", 4, 3));
    waitFor(1, 3000);
    QCOMPARE(m_done[0].error, ErrorClass::TimeoutBeforeFirstToken);
}

void TestWorker::cancelWithinOneSecond()
{
    for (std::uint64_t i = 0; i < 16; ++i)
        m_worker->submit(item("ok", 100000, i, 5));
    QTRY_VERIFY_WITH_TIMEOUT(m_server->seen.size() == 16, 5000);
    QTest::qWait(100);
    QElapsedTimer timer;
    timer.start();
    m_worker->cancelAll();
    waitFor(16, 1000);
    QVERIFY(timer.elapsed() < 1000);
    QCOMPARE(m_worker->inFlight(), 0);
    for (const RequestRecord &r : m_done)
        QCOMPARE(r.error, ErrorClass::HarnessCancelled);
}

void TestWorker::closeEachConnectionSpreadsSources()
{
    // The server closes after each stream: after 64 such requests the worker binds 127.0.0.2–9.
    for (std::uint64_t i = 0; i < 100; ++i) {
        m_worker->submit(item("closeeach", 2, i, 1));
        if (i % 8 == 7)
            waitFor(i + 1);
    }
    waitFor(100);
    QVERIFY(m_worker->spreadingLoopbackSources());
    QSet<QByteArray> peers;
    for (const auto &s : m_server->seen)
        peers.insert(s.peerAddress);
    QVERIFY2(peers.size() >= 8, qPrintable(QString::number(peers.size())));
    for (const RequestRecord &r : m_done)
        QCOMPARE(r.error, ErrorClass::None);
}

void TestWorker::requestBuilding()
{
    Scenario s;
    s.model.name = "llama-3.1-8b";
    s.backend.id = "dynamo";
    s.backend.maxTokensField = "max_completion_tokens";
    s.backend.sendMinTokens = true;
    s.backend.sendIgnoreEos = true;
    s.backend.sendNvextIgnoreEos = true;
    s.backend.acceptsTokenIdPrompts = true;
    s.endpoint.baseUrl = "http://127.0.0.1:8000/v1/";
    s.endpoint.flavour = ApiFlavour::Completions;
    s.endpoint.extraHeaders = {{"X-Tenant", "a"}};
    s.endpoint.extraBody = {{"top_p", 0.9}, {"stream_options", {{"include_usage", false}}}};
    s.phase.isl = 128;
    s.phase.osl = 64;
    RequestBuilder b(s, "0f0e", nullptr, "sk-live-XYZ987");
    const HttpRequest r = b.build(42, 128, 64);
    QCOMPARE(r.url, std::string("http://127.0.0.1:8000/v1/completions"));
    const auto body = nlohmann::json::parse(r.body);
    QCOMPARE(body["max_completion_tokens"].get<int>(), 64);
    QCOMPARE(body["min_tokens"].get<int>(), 64);
    QVERIFY(body["ignore_eos"].get<bool>());
    QVERIFY(body["nvext"]["ignore_eos"].get<bool>());
    QVERIFY(body["stream"].get<bool>());
    QCOMPARE(body["stream_options"]["include_usage"].get<bool>(), false); // campaign extra wins
    QVERIFY(body["top_p"].get<double>() == 0.9);
    QCOMPARE(body["prompt"].size(), std::size_t(128));
    QCOMPARE(body["model"].get<std::string>(), std::string("llama-3.1-8b"));
    QVERIFY(std::find(r.headers.begin(), r.headers.end(), "X-Request-Id: 0f0e-42") != r.headers.end());
    QVERIFY(std::find(r.headers.begin(), r.headers.end(), "Authorization: Bearer sk-live-XYZ987") !=
            r.headers.end());
    QVERIFY(std::find(r.headers.begin(), r.headers.end(), "X-Tenant: a") != r.headers.end());
    // Unique prefix per request, deterministic per seq.
    const auto body2 = nlohmann::json::parse(b.build(43, 128, 64).body);
    QVERIFY(body2["prompt"][0] != body["prompt"][0]);
    QVERIFY(nlohmann::json::parse(b.build(42, 128, 64).body) == body);
    // The template never carries the key.
    QVERIFY(b.templateJson().dump().find("XYZ987") == std::string::npos);

    // Chat flavour with the vLLM-like default preset: text prompt of about ISL words.
    s.endpoint.flavour = ApiFlavour::Chat;
    s.backend = BackendPreset{};
    s.endpoint.extraBody = nlohmann::json::object();
    RequestBuilder c(s, "run", nullptr, "");
    const auto cb = nlohmann::json::parse(c.build(7, 1000, 10).body);
    QCOMPARE(cb["max_tokens"].get<int>(), 10);
    QVERIFY(!cb.contains("min_tokens"));
    QVERIFY(cb["stream_options"]["include_usage"].get<bool>());
    const std::string text = cb["messages"][0]["content"].get<std::string>();
    const auto words = std::count(text.begin(), text.end(), ' ');
    QVERIFY(words > 950 && words < 1050);
    QVERIFY(text.rfind("Request 7-", 0) == 0);
}

void TestWorker::redaction()
{
    QCOMPARE(redactSecrets("token sk-abcdef in text", "sk-abcdef"), std::string("token *** in text"));
    QCOMPARE(redactSecrets("Authorization: Bearer abc.def-ghi\nnext", ""),
             std::string("Authorization: Bearer ***\nnext"));
    QCOMPARE(redactSecrets("{\"h\":\"bearer xyz\"}", ""), std::string("{\"h\":\"bearer ***\"}"));
    QCOMPARE(redactSecrets("no secrets", "key1"), std::string("no secrets"));
    Endpoint e;
    e.name = "ep";
    e.apiKeyEnv = "THROUGHLINE_TEST_UNSET_VAR_9";
    auto k = resolveApiKey(e);
    QVERIFY(!k.ok());
    QVERIFY(k.error().message.find("THROUGHLINE_TEST_UNSET_VAR_9") != std::string::npos);
    qputenv("THROUGHLINE_TEST_KEY_VAR", "dummy-key-123");
    auto k2 = resolveApiKey(e, "THROUGHLINE_TEST_KEY_VAR");
    QVERIFY(k2.ok());
    QCOMPARE(*k2, std::string("dummy-key-123"));
}

void TestWorker::wavesOverReusedConnections()
{
    // Each socket moves between the worker's two epoll sets (before / after its transfer's first content
    // event) and, on keep-alive reuse, is handed back by libcurl for the next transfer: three waves of 48
    // streams over the same 48 connections must all complete, every token counted, nothing stalled.
    // A socket missing from both sets still creeps on through libcurl's timers (seconds per wave), hence
    // the time bound: ~0.1 s of streaming, 6 s allowed.
    constexpr int kStreams = 48;
    QElapsedTimer clock;
    clock.start();
    for (int wave = 0; wave < 3; ++wave) {
        for (int i = 0; i < kStreams; ++i)
            m_worker->submit(item("ok", 8, static_cast<std::uint64_t>(wave * kStreams + i), 3));
        waitFor(static_cast<std::size_t>((wave + 1) * kStreams));
    }
    QVERIFY2(clock.elapsed() < 6000,
             qPrintable(QStringLiteral("three waves took %1 ms").arg(clock.elapsed())));
    QCOMPARE(m_server->connections(), kStreams);
    std::lock_guard lock(m_mutex);
    QCOMPARE(int(m_done.size()), 3 * kStreams);
    for (const RequestRecord &r : m_done) {
        QCOMPARE(r.error, ErrorClass::None);
        QCOMPARE(r.nOut, 8);
        int content = 0;
        for (const StreamEvent &e : r.events)
            content += e.kind == StreamEvent::Kind::Content;
        QCOMPARE(content, 8);
    }
}

// First-token priority on (default): every stream's response headers and role chunk arrive before its first
// content event, i.e. while its socket sits in the priority set, so the worker reads from that set. Off: no
// socket is ever read from it. On again: it is used again. Every stream completes in every phase.
void TestWorker::firstTokenPriorityReadOrder()
{
    constexpr int kStreams = 16;
    QVERIFY(m_worker->firstTokenPriority());
    auto wave = [this](int index) {
        for (int i = 0; i < kStreams; ++i)
            m_worker->submit(item("ok", 6, static_cast<std::uint64_t>(index * kStreams + i), 4));
        waitFor(static_cast<std::size_t>((index + 1) * kStreams));
    };
    wave(0);
    const std::uint64_t afterOn = m_worker->prioritySocketReads();
    QVERIFY2(afterOn > 0, qPrintable(QStringLiteral("priority reads: %1").arg(afterOn)));

    m_worker->setFirstTokenPriority(false);
    QVERIFY(!m_worker->firstTokenPriority());
    wave(1);
    wave(2);
    QCOMPARE(m_worker->prioritySocketReads(), afterOn);

    m_worker->setFirstTokenPriority(true);
    wave(3);
    QVERIFY(m_worker->prioritySocketReads() > afterOn);

    std::lock_guard lock(m_mutex);
    QCOMPARE(int(m_done.size()), 4 * kStreams);
    for (const RequestRecord &r : m_done) {
        QCOMPARE(r.error, ErrorClass::None);
        QCOMPARE(r.nOut, 6);
    }
}

void TestWorker::usableCpuCountFollowsAffinity()
{
    // The engine's default worker count: one per CPU this process may run on, not per CPU of the machine.
    cpu_set_t all;
    QCOMPARE(sched_getaffinity(0, sizeof all, &all), 0);
    QCOMPARE(usableCpuCount(), CPU_COUNT(&all));
    int pinned = 0;
    std::thread t([&] {
        cpu_set_t one;
        CPU_ZERO(&one);
        for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
            if (CPU_ISSET(cpu, &all)) {
                CPU_SET(cpu, &one);
                break;
            }
        if (sched_setaffinity(0, sizeof one, &one) == 0)
            pinned = usableCpuCount();
    });
    t.join();
    QCOMPARE(pinned, 1);
}

QTEST_GUILESS_MAIN(TestWorker)
#include "tst_worker.moc"
