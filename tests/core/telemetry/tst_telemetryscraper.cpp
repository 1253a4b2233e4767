// TelemetryScraper against a real loopback HTTP server (QTcpServer in the test thread): a good /metrics whose
// counter grows by 100 per scrape, a URL answering 500, a URL that never answers, and TRT-LLM JSON.

#include "core/telemetry/commonseries.h"
#include "core/telemetry/readinessprobe.h"
#include "core/telemetry/telemetryscraper.h"

#include <QElapsedTimer>
#include <QFile>
#include <QPointer>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>

#include <atomic>
#include <chrono>
#include <cmath>
#include <thread>

using namespace Throughline;
using namespace Throughline::CommonSeries;

namespace {

// Minimal HTTP/1.1 server: reads one request per connection, answers by path, closes.
class MiniHttpServer : public QObject
{
public:
    int metricsHits = 0;
    int healthFailuresLeft = 0; // /health answers 503 this many times, then 200
    int healthHits = 0, modelsHits = 0;
    QByteArray trtBody;

    bool listen()
    {
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *s = m_server.nextPendingConnection()) {
                connect(s, &QTcpSocket::readyRead, this, [this, s] { onRead(s); });
                connect(s, &QTcpSocket::disconnected, s, &QObject::deleteLater);
            }
        });
        return m_server.listen(QHostAddress::LocalHost, 0);
    }
    std::string url(const char *path) const
    {
        return "http://127.0.0.1:" + std::to_string(m_server.serverPort()) + path;
    }

private:
    void onRead(QTcpSocket *s)
    {
        QByteArray buf = s->property("buf").toByteArray() + s->readAll();
        s->setProperty("buf", buf);
        if (!buf.contains("\r\n\r\n"))
            return;
        const QByteArray path = buf.split(' ').value(1);
        if (path == "/slow")
            return; // never answer: the scraper's timeout must end it
        QByteArray status = "200 OK", body, type = "text/plain; version=0.0.4";
        if (path == "/metrics") {
            ++metricsHits;
            body = "# HELP vllm:generation_tokens_total Number of generation tokens processed.\n"
                   "# TYPE vllm:generation_tokens_total counter\n"
                   "vllm:generation_tokens_total{model_name=\"m\"} " +
                   QByteArray::number(100 * metricsHits) +
                   "\n# TYPE vllm:num_requests_running gauge\nvllm:num_requests_running{model_name=\"m\"} 4\n"
                   "broken{line 1\n";
        } else if (path == "/trt") {
            body = trtBody;
            type = "application/json";
        } else if (path == "/health") {
            ++healthHits;
            if (healthFailuresLeft > 0) {
                --healthFailuresLeft;
                status = "503 Service Unavailable";
            }
        } else if (path == "/v1/models") {
            ++modelsHits;
            body = R"({"object":"list","data":[{"id":"m"}]})";
            type = "application/json";
        } else if (path == "/fail") {
            status = "500 Internal Server Error";
            body = "boom";
        } else {
            status = "404 Not Found";
        }
        s->write("HTTP/1.1 " + status + "\r\nContent-Type: " + type + "\r\nContent-Length: " +
                 QByteArray::number(body.size()) + "\r\nConnection: close\r\n\r\n" + body);
        s->disconnectFromHost();
    }

    QTcpServer m_server;
};

std::int64_t nowNs(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0)
        .count();
}

} // namespace

class TestTelemetryScraper : public QObject
{
    Q_OBJECT

private slots:
    void scrapesSeriesAndCountsFailures();
    void trtllmJsonEndpoint();
    void scrapeOnceUnreachable();
    void targetsForPreset();
    void readinessProbe();
    void readinessDeadlineAndCancel();
};

void TestTelemetryScraper::scrapesSeriesAndCountsFailures()
{
    MiniHttpServer server;
    QVERIFY(server.listen());
    ScraperOptions opt;
    opt.interval = std::chrono::milliseconds(100);
    opt.timeout = std::chrono::milliseconds(400);
    TelemetryScraper scraper(
        {ScrapeTarget{server.url("/metrics"), TelemetrySource::Format::Prometheus, "vllm"},
         ScrapeTarget{server.url("/fail"), TelemetrySource::Format::Prometheus, "vllm"},
         ScrapeTarget{server.url("/slow"), TelemetrySource::Format::Prometheus, "vllm"}},
        opt);
    const auto t0 = std::chrono::steady_clock::now();
    scraper.start(t0);
    QVERIFY(scraper.isRunning());
    QTRY_VERIFY_WITH_TIMEOUT(scraper.snapshot().sources[0].scrapesOk >= 6, 20000);
    QElapsedTimer stopTimer;
    stopTimer.start();
    scraper.stop();
    QVERIFY2(stopTimer.elapsed() < 1500, "stop() must not wait for more than one transfer timeout");
    QVERIFY(!scraper.isRunning());
    const std::int64_t end = nowNs(t0);

    const TelemetrySnapshot snap = scraper.snapshot();
    QCOMPARE(snap.sources.size(), std::size_t(3));
    const TelemetrySourceStatus &good = snap.sources[0], &fail = snap.sources[1], &slow = snap.sources[2];
    QCOMPARE(good.scrapesFailed, 0);
    QCOMPARE(good.malformedLines, good.scrapesOk); // one broken line per body, counted, never fatal
    QCOMPARE(good.lastMalformedLine, 6);
    QCOMPARE(fail.scrapesOk, 0);
    QVERIFY(fail.scrapesFailed >= 5);
    QVERIFY2(fail.lastError.find("HTTP 500") != std::string::npos, fail.lastError.c_str());
    QCOMPARE(slow.scrapesOk, 0);
    QVERIFY(slow.scrapesFailed >= 1);
    QVERIFY2(!slow.lastError.empty(), "the hanging URL must be reported as a failure");

    // Failures are visible on the time axis (scrape_up 0) and do not stop the good source's series.
    const TelemetrySeries *upFail = snap.find(kScrapeUp, 1);
    QVERIFY(upFail);
    QCOMPARE(static_cast<int>(upFail->samples.size()), fail.scrapesFailed);
    for (const TelemetrySample &p : upFail->samples)
        QCOMPARE(p.value, 0.0);

    const TelemetrySeries *gen = snap.find(kGenerationTps, 0);
    QVERIFY(gen);
    QCOMPARE(static_cast<int>(gen->samples.size()), good.scrapesOk - 1); // a rate needs two scrapes
    const TelemetrySeries *up = snap.find(kScrapeUp, 0);
    QVERIFY(up);
    std::int64_t prevT = up->samples.front().tNs;
    for (std::size_t i = 0; i < gen->samples.size(); ++i) {
        // The server's counter grows by exactly 100 per scrape: rate = 100 / Δt of the sample times.
        const TelemetrySample &p = gen->samples[i];
        const double dtS = double(p.tNs - prevT) / 1e9;
        QVERIFY(dtS > 0.05); // interval 100 ms (a slow round skips ticks, never bursts)
        QVERIFY2(std::abs(p.value - 100.0 / dtS) < 1e-6 * p.value, qPrintable(QString::number(p.value)));
        prevT = p.tNs;
    }
    for (const TelemetrySeries &s : snap.series)
        for (const TelemetrySample &p : s.samples)
            QVERIFY(p.tNs > 0 && p.tNs < end); // run clock: after t=0, before now
    QCOMPARE(snap.find(kRunning, 0)->samples.back().value, 4.0);
    QVERIFY(scraper.roundsCompleted() >= 6);
}

void TestTelemetryScraper::trtllmJsonEndpoint()
{
    MiniHttpServer server;
    QFile f(QStringLiteral(THROUGHLINE_TEST_DATA_DIR "/telemetry/trtllm_iteration_stats.json"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    server.trtBody = f.readAll();
    QVERIFY(server.listen());
    ScraperOptions opt;
    opt.interval = std::chrono::milliseconds(50);
    // Declared Prometheus on purpose: a JSON body is recognised anyway (trtllm-serve's /metrics).
    TelemetryScraper scraper(
        {ScrapeTarget{server.url("/trt"), TelemetrySource::Format::Prometheus, "trtllm"}}, opt);
    scraper.start(std::chrono::steady_clock::now());
    QTRY_VERIFY_WITH_TIMEOUT(scraper.snapshot().sources[0].scrapesOk >= 3, 10000);
    scraper.stop();
    const TelemetrySnapshot snap = scraper.snapshot();
    QVERIFY(snap.find(kRunning));
    QCOMPARE(snap.find(kRunning)->samples.back().value, 8.0);
    QCOMPARE(snap.find(kKvCacheUsage)->samples.back().value, 0.4);
    QVERIFY(snap.find(kGenerationTps));
    QCOMPARE(snap.sources[0].malformedLines, 0);
}

void TestTelemetryScraper::scrapeOnceUnreachable()
{
    // Driven from the caller's loop, no thread: a refused connection is a counted failure, quickly.
    QTcpServer probe;
    QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
    const quint16 port = probe.serverPort();
    probe.close(); // nothing listens there any more
    TelemetryScraper scraper({ScrapeTarget{"http://127.0.0.1:" + std::to_string(port) + "/metrics",
                                           TelemetrySource::Format::Prometheus, "vllm"}});
    const auto t0 = std::chrono::steady_clock::now();
    QElapsedTimer timer;
    timer.start();
    scraper.scrapeOnce(t0);
    scraper.scrapeOnce(t0);
    QVERIFY(timer.elapsed() < 2000);
    const TelemetrySnapshot snap = scraper.snapshot();
    QCOMPARE(snap.sources[0].scrapesFailed, 2);
    QVERIFY(!snap.sources[0].lastError.empty());
    QCOMPARE(scraper.roundsCompleted(), 2);
}

void TestTelemetryScraper::targetsForPreset()
{
    BackendPreset trt;
    trt.id = "trtllm";
    trt.telemetry = {TelemetrySource{"/prometheus/metrics", TelemetrySource::Format::Prometheus},
                     TelemetrySource{"metrics", TelemetrySource::Format::TrtllmJson}};
    const auto targets = TelemetryScraper::targetsFor({"http://10.0.0.1:8000/v1/", "http://10.0.0.2:8000"},
                                                      trt, {"http://10.0.0.1:9400/metrics"});
    QCOMPARE(targets.size(), std::size_t(5));
    QCOMPARE(targets[0].url, std::string("http://10.0.0.1:8000/prometheus/metrics"));
    QCOMPARE(targets[1].url, std::string("http://10.0.0.1:8000/metrics"));
    QCOMPARE(targets[1].format, TelemetrySource::Format::TrtllmJson);
    QCOMPARE(targets[2].url, std::string("http://10.0.0.2:8000/prometheus/metrics"));
    QCOMPARE(targets[4].url, std::string("http://10.0.0.1:9400/metrics"));
    QCOMPARE(targets[4].backendId, std::string());
    QCOMPARE(targets[0].backendId, std::string("trtllm"));
}

void TestTelemetryScraper::readinessProbe()
{
    // /health fails 3 times (model loading), then the probe moves on to /v1/models.
    MiniHttpServer server;
    server.healthFailuresLeft = 3;
    QVERIFY(server.listen());
    ReadinessOptions opt;
    opt.pollInterval = std::chrono::milliseconds(20);
    std::atomic<bool> done{false};
    Result<ReadinessResult> result = makeError(ErrorCode::Internal, "not run");
    const auto t0 = std::chrono::steady_clock::now();
    std::thread worker([&] {
        result = ReadinessProbe::waitUntilReady(server.url("/v1/"), t0, opt);
        done = true;
    });
    QTRY_VERIFY_WITH_TIMEOUT(done.load(), 10000);
    worker.join();
    QVERIFY2(result.ok(), result.ok() ? "" : result.error().message.c_str());
    QCOMPARE(server.healthHits, 4);
    QCOMPARE(server.modelsHits, 1);
    QCOMPARE(result->attempts, 5);
    QVERIFY(result->healthOkNs >= 3 * 20'000'000); // three failed polls 20 ms apart came first
    QVERIFY(result->modelsOkNs >= result->healthOkNs);
    QCOMPARE(result->readyNs, result->modelsOkNs);
    QVERIFY(result->lastError.find("HTTP 503") != std::string::npos);
}

void TestTelemetryScraper::readinessDeadlineAndCancel()
{
    QTcpServer probe;
    QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
    const std::string url = "http://127.0.0.1:" + std::to_string(probe.serverPort());
    probe.close();
    ReadinessOptions opt;
    opt.pollInterval = std::chrono::milliseconds(20);
    opt.deadline = std::chrono::milliseconds(200);
    auto r = ReadinessProbe::waitUntilReady(url, std::chrono::steady_clock::now(), opt);
    QVERIFY(!r.ok());
    QCOMPARE(r.error().code, ErrorCode::Network);
    QVERIFY(r.error().message.find("/health") != std::string::npos);
    std::atomic<bool> cancel{true};
    auto c = ReadinessProbe::waitUntilReady(url, std::chrono::steady_clock::now(), opt, &cancel);
    QVERIFY(!c.ok());
    QCOMPARE(c.error().code, ErrorCode::Cancelled);
}

QTEST_GUILESS_MAIN(TestTelemetryScraper)
#include "tst_telemetryscraper.moc"
