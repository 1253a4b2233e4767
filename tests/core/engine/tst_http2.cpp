// HTTP/2 in the engine: the campaign's endpoint "http_version" (JSON round trip, validation), and a closed
// loop of 16 streams over HTTP/2 — TLS with ALPN, and cleartext prior knowledge where libcurl supports it —
// through nginx as an h2/h2c front of a real throughline-sim child process (time scale 1, zero jitter, ground
// truth joined by X-Request-Id): multiplexed (fewer connections than streams, counted by libcurl and by
// nginx's access log), every response HTTP/2, N_out equal to the server's n_out, client-added first-token
// delay and per-request TPOT against the server's write times as on the HTTP/1.1 path (tst_runcontroller),
// plus nginx's extra hop. The network part needs nginx (Debian package `nginx`) and is skipped with a message
// when it is missing.
#include "common/demoscenario.h"
#include "core/campaign/campaignjson.h"
#include "core/campaign/campaignvalidator.h"
#include "core/engine/requestbuilder.h"
#include "core/engine/worker.h"
#include "core/sim/simprocess.h"
#include "loopbackserver.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <curl/curl.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <set>
#include <sstream>

using namespace Throughline;
using namespace Qt::StringLiterals;

namespace {

struct Truth {
    std::int64_t tFirstWrite = 0;
    std::vector<std::int64_t> tokenWrites;
    int nOut = 0;
};

std::map<std::string, Truth> readTruth(const QString &path)
{
    std::map<std::string, Truth> m;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return m;
    while (!f.atEnd()) {
        const auto j = nlohmann::json::parse(f.readLine().toStdString(), nullptr, false);
        if (j.is_discarded() || !j.contains("request_id"))
            continue;
        Truth t;
        if (j["t_first_token_write_ns"].is_number())
            t.tFirstWrite = j["t_first_token_write_ns"].get<std::int64_t>();
        for (const auto &w : j["t_token_write_ns"])
            t.tokenWrites.push_back(w.get<std::int64_t>());
        t.nOut = j["n_out"].get<int>();
        m[j["request_id"].get<std::string>()] = t;
    }
    return m;
}

double pct(std::vector<double> v, double p)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    const double rank = p / 100.0 * static_cast<double>(v.size() - 1);
    const auto lo = static_cast<std::size_t>(rank);
    const auto hi = std::min(lo + 1, v.size() - 1);
    return v[lo] + (v[hi] - v[lo]) * (rank - static_cast<double>(lo));
}

QString findNginx()
{
    QString exe = QStandardPaths::findExecutable(u"nginx"_s);
    if (exe.isEmpty())
        exe = QStandardPaths::findExecutable(u"nginx"_s, {u"/usr/sbin"_s, u"/usr/local/sbin"_s, u"/sbin"_s});
    return exe;
}

} // namespace

class TestHttp2 : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void httpVersionJson();
    void multiplexedThroughNginx_data();
    void multiplexedThroughNginx();

private:
    bool makeCertificate();
    bool startNginx(int upstreamPort);
    void stopNginx();

    QTemporaryDir m_dir;
    Scenario m_chat;
    QProcess m_nginx;
    int m_nginxPort = 0;    // cleartext HTTP/2 (prior knowledge)
    int m_nginxTlsPort = 0; // HTTP/2 over TLS (ALPN), self-signed certificate for 127.0.0.1
};

void TestHttp2::initTestCase()
{
    QVERIFY(m_dir.isValid());
    auto demo = TestSupport::firstDemoScenario();
    QVERIFY2(demo.ok(), TestSupport::errorText(demo));
    m_chat = *demo;
}

void TestHttp2::cleanupTestCase()
{
    stopNginx();
}

void TestHttp2::stopNginx()
{
    if (m_nginx.state() != QProcess::NotRunning) {
        m_nginx.terminate(); // SIGTERM: nginx's fast shutdown
        if (!m_nginx.waitForFinished(5000))
            m_nginx.kill();
    }
}

bool TestHttp2::makeCertificate()
{
    if (QFile::exists(m_dir.filePath(u"cert.pem"_s)))
        return true;
    QProcess p;
    p.setWorkingDirectory(m_dir.path());
    p.start(u"openssl"_s, {u"req"_s, u"-x509"_s, u"-newkey"_s, u"rsa:2048"_s, u"-nodes"_s, u"-days"_s, u"1"_s,
                           u"-subj"_s, u"/CN=127.0.0.1"_s, u"-addext"_s, u"subjectAltName=IP:127.0.0.1"_s,
                           u"-keyout"_s, u"key.pem"_s, u"-out"_s, u"cert.pem"_s});
    return p.waitForFinished(30000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
}

void TestHttp2::httpVersionJson()
{
    auto demo = CampaignJson::readFile(":/campaigns/demo.json");
    QVERIFY(demo.ok());
    nlohmann::json j = CampaignJson::toJson(*demo);
    QVERIFY(!j["endpoints"][0].contains("http_version")); // default "1.1" is not written
    j["endpoints"][0] = {{"name", "front"},
                         {"kind", "http"},
                         {"base_url", "http://127.0.0.1:8080"},
                         {"http_version", "h2c-prior-knowledge"}};
    auto c = CampaignJson::read(j.dump());
    QVERIFY2(c.ok(), c.ok() ? "" : c.error().message.c_str());
    QCOMPARE(c->endpoints.at(0).httpVersion, Endpoint::HttpVersion::H2cPriorKnowledge);
    const std::string text = CampaignJson::write(*c);
    auto again = CampaignJson::read(text);
    QVERIFY(again.ok());
    QVERIFY(again->endpoints == c->endpoints);
    QVERIFY(nlohmann::json::parse(text)["endpoints"][0]["http_version"] == "h2c-prior-knowledge");

    j["endpoints"][0]["http_version"] = "3";
    auto bad = CampaignJson::read(j.dump());
    QVERIFY(!bad.ok());
    QVERIFY2(bad.error().message.find("/endpoints/0/http_version") != std::string::npos &&
                 bad.error().message.find("expected one of 1.1, 2, h2c-prior-knowledge") != std::string::npos,
             bad.error().message.c_str());

    // "2" is HTTP/2 by ALPN: over plain http it would silently be HTTP/1.1, so the validator says so.
    j["endpoints"][0]["http_version"] = "2";
    const auto problems = CampaignValidator().validate(j.dump()).problems;
    const bool flagged = std::any_of(problems.begin(), problems.end(), [](const ValidationProblem &p) {
        return p.pointer == "/endpoints/0/http_version" &&
               p.message.find("h2c-prior-knowledge") != std::string::npos;
    });
    QVERIFY(flagged);
    j["endpoints"][0]["base_url"] = "https://127.0.0.1:8443";
    for (const ValidationProblem &p : CampaignValidator().validate(j.dump()).problems)
        QVERIFY2(p.pointer != "/endpoints/0/http_version", p.message.c_str());
}

bool TestHttp2::startNginx(int upstreamPort)
{
    m_nginxPort = unusedLoopbackPort();
    do
        m_nginxTlsPort = unusedLoopbackPort();
    while (m_nginxTlsPort == m_nginxPort);
    const QString prefix = m_dir.filePath(u"nginx"_s);
    QDir().mkpath(prefix + u"/logs"_s);
    QFile::remove(prefix + u"/logs/access.log"_s); // one log per test row
    // One foreground process, no privilege switch, every path inside the temporary prefix. The front speaks
    // cleartext HTTP/2 (prior knowledge) to the client and HTTP/1.1 to the simulator, unbuffered (SSE).
    const std::string p = prefix.toStdString();
    const std::string conf = "daemon off;\n"
                             "master_process off;\n"
                             "worker_processes 1;\n"
                             "pid " +
                             p +
                             "/nginx.pid;\n"
                             "error_log " +
                             p +
                             "/logs/error.log warn;\n"
                             "events { worker_connections 1024; }\n"
                             "http {\n"
                             "  log_format h2 '$connection $server_protocol $http_x_request_id $status';\n"
                             "  access_log " +
                             p +
                             "/logs/access.log h2;\n"
                             "  client_body_temp_path " +
                             p +
                             "/body;\n"
                             "  proxy_temp_path " +
                             p +
                             "/proxy;\n"
                             "  fastcgi_temp_path " +
                             p +
                             "/fastcgi;\n"
                             "  uwsgi_temp_path " +
                             p +
                             "/uwsgi;\n"
                             "  scgi_temp_path " +
                             p +
                             "/scgi;\n"
                             "  client_body_buffer_size 1m;\n"
                             "  server {\n"
                             "    listen 127.0.0.1:" +
                             std::to_string(m_nginxPort) +
                             " http2;\n"
                             "    listen 127.0.0.1:" +
                             std::to_string(m_nginxTlsPort) +
                             " ssl http2;\n"
                             "    ssl_certificate " +
                             m_dir.filePath(u"cert.pem"_s).toStdString() +
                             ";\n"
                             "    ssl_certificate_key " +
                             m_dir.filePath(u"key.pem"_s).toStdString() +
                             ";\n"
                             "    location / {\n"
                             "      proxy_pass http://127.0.0.1:" +
                             std::to_string(upstreamPort) +
                             ";\n"
                             "      proxy_http_version 1.1;\n"
                             "      proxy_set_header Connection \"\";\n"
                             "      proxy_buffering off;\n"
                             "      proxy_read_timeout 60s;\n"
                             "    }\n"
                             "  }\n"
                             "}\n";
    QFile f(prefix + u"/nginx.conf"_s);
    if (!f.open(QIODevice::WriteOnly) || f.write(conf.data(), qint64(conf.size())) != qint64(conf.size()))
        return false;
    f.close();
    m_nginx.setProcessChannelMode(QProcess::MergedChannels);
    m_nginx.start(findNginx(), {u"-p"_s, prefix + u"/"_s, u"-c"_s, prefix + u"/nginx.conf"_s, u"-e"_s,
                                prefix + u"/logs/error.log"_s});
    if (!m_nginx.waitForStarted(5000))
        return false;
    for (int i = 0; i < 100; ++i) {
        if (acceptsOnLoopback(m_nginxPort) && acceptsOnLoopback(m_nginxTlsPort))
            return true;
        if (m_nginx.waitForFinished(50))
            return false; // exited: bad config or port taken
    }
    return false;
}

void TestHttp2::multiplexedThroughNginx_data()
{
    QTest::addColumn<bool>("tls");
    QTest::newRow("h2-tls-alpn") << true;
    QTest::newRow("h2c-prior-knowledge") << false;
}

void TestHttp2::multiplexedThroughNginx()
{
    QFETCH(bool, tls);
    if (findNginx().isEmpty())
        QSKIP(
            "nginx is not installed (Debian package 'nginx'): HTTP/2 multiplexing through an nginx front of "
            "the simulator is not tested");
    if (!tls && curl_version_info(CURLVERSION_NOW)->version_num < 0x080000)
        QSKIP("libcurl < 8.0 (seen with 7.88.1, Debian 12): the second and later streams multiplexed on one "
              "h2c prior-knowledge connection fail with 'Error in the HTTP2 framing layer' (the curl tool "
              "shows the same against this nginx); HTTP/2 over TLS is tested instead");
    if (tls && !makeCertificate())
        QSKIP("the openssl tool is not available to make a test certificate: HTTP/2 over TLS not tested");
    stopNginx();

    const QString truthPath = m_dir.filePath(tls ? u"truth_h2_tls.jsonl"_s : u"truth_h2c.jsonl"_s);
    SimulatorOptions so = m_chat.endpoint.sim;
    so.timeScale = 1.0;
    so.jitter = 0;
    so.seed = 3;
    auto args = SimProcess::argumentsFor(m_chat.model.name, m_chat.gpu.name, m_chat.deployment.gpus,
                                         m_chat.deployment.precision, so);
    args.insert(args.end(), {"--ground-truth", truthPath.toStdString()});
    SimProcess sim;
    auto simPort = sim.start(THROUGHLINE_SIM_EXE, args);
    QVERIFY2(simPort.ok(), simPort.ok() ? "" : simPort.error().message.c_str());
    if (!startNginx(*simPort)) {
        QFile e(m_dir.filePath(u"nginx/logs/error.log"_s));
        QByteArray why = m_nginx.readAll();
        if (e.open(QIODevice::ReadOnly))
            why += e.readAll();
        why.prepend("nginx did not start: ");
        QFAIL(why.constData());
    }

    // A closed loop of 16 streams, 48 requests, on one worker: each completion sends the next request.
    constexpr int kStreams = 16;
    constexpr int kRequests = 48;
    Scenario sc = m_chat;
    sc.endpoint.kind = Endpoint::Kind::Http;
    sc.endpoint.baseUrl = tls ? "https://127.0.0.1:" + std::to_string(m_nginxTlsPort)
                              : "http://127.0.0.1:" + std::to_string(m_nginxPort);
    sc.phase.osl = 64;
    const std::string runId = "h2test";
    const RequestBuilder builder(sc, runId, nullptr, {});
    auto opts = std::make_shared<TransferOptions>();
    opts->httpVersion = tls ? Endpoint::HttpVersion::Http2 : Endpoint::HttpVersion::H2cPriorKnowledge;
    opts->caFile = tls ? m_dir.filePath(u"cert.pem"_s).toStdString() : std::string();
    opts->requestTimeoutS = 30;

    const auto t0 = Worker::Clock::now();
    const std::int64_t t0Ns =
        std::chrono::duration_cast<std::chrono::nanoseconds>(t0.time_since_epoch()).count();
    std::mutex mutex;
    std::vector<RequestRecord> done;
    std::uint64_t nextSeq = 0;
    Worker *workerPtr = nullptr;
    auto makeItem = [&](std::uint64_t seq) {
        WorkItem w;
        w.request = builder.build(seq, sc.phase.isl, sc.phase.osl);
        w.record.seq = seq;
        w.record.intendedIsl = sc.phase.isl;
        w.record.intendedOsl = sc.phase.osl;
        w.record.tSched = workerPtr->nowNs();
        w.options = opts;
        return w;
    };
    Worker worker(0, t0, [&](RequestRecord &&r, std::uint64_t, int) {
        std::lock_guard lock(mutex);
        done.push_back(std::move(r));
        if (nextSeq < kRequests)
            workerPtr->submit(makeItem(nextSeq++));
    });
    workerPtr = &worker;
    worker.start();
    {
        std::lock_guard lock(mutex);
        for (; nextSeq < kStreams; ++nextSeq)
            worker.submit(makeItem(nextSeq));
    }
    QTRY_VERIFY_WITH_TIMEOUT(([&] {
                                 std::lock_guard lock(mutex);
                                 return done.size() >= std::size_t(kRequests);
                             })(),
                             45000);
    worker.stop();
    const std::uint64_t connections = worker.newConnections();

    // Every request succeeded over HTTP/2 and carried the server's exact token count.
    for (const RequestRecord &r : done) {
        if (!r.ok()) {
            QFile e(m_dir.filePath(u"nginx/logs/error.log"_s));
            QByteArray why = QByteArray::fromStdString(r.errorDetail + "; nginx error log: ");
            if (e.open(QIODevice::ReadOnly))
                why += e.readAll().left(2000);
            QFAIL(why.constData());
        }
    }
    sim.stop(); // flushes the ground-truth log
    const auto gt = readTruth(truthPath);
    QCOMPARE(int(gt.size()), kRequests);
    std::vector<double> delayMs, tpotErrPct;
    for (const RequestRecord &r : done) {
        QVERIFY2(r.ok(), r.errorDetail.c_str());
        QCOMPARE(r.httpVersion, 20);
        const auto it = gt.find(runId + "-" + std::to_string(r.seq));
        QVERIFY(it != gt.end());
        const Truth &t = it->second;
        QCOMPARE(r.nOutSource, TokenCountSource::Usage);
        QCOMPARE(r.nOut, t.nOut);
        std::int64_t first = kNoTime, last = kNoTime;
        int content = 0;
        for (const StreamEvent &e : r.events) {
            if (e.kind != StreamEvent::Kind::Content)
                continue;
            ++content;
            if (first == kNoTime)
                first = e.tNs;
            last = e.tNs;
        }
        QCOMPARE(content, static_cast<int>(t.tokenWrites.size())); // no event lost or merged by the front
        QVERIFY(first + t0Ns >= t.tFirstWrite);
        delayMs.push_back(static_cast<double>(first + t0Ns - t.tFirstWrite) / 1e6);
        const double clientTpot = static_cast<double>(last - first) / (r.nOut - r.nFirst);
        const double serverTpot =
            static_cast<double>(t.tokenWrites.back() - t.tokenWrites.front()) / (t.nOut - 1);
        tpotErrPct.push_back(std::abs(clientTpot - serverTpot) / serverTpot * 100);
    }

    // Multiplexed: libcurl opened fewer connections than streams, and nginx saw the same on its side.
    std::set<std::string> nginxConnections;
    int nginxLines = 0;
    QTRY_VERIFY_WITH_TIMEOUT(([&] {
                                 QFile f(m_dir.filePath(u"nginx/logs/access.log"_s));
                                 return f.open(QIODevice::ReadOnly) && f.readAll().count('\n') >= kRequests;
                             })(),
                             5000);
    QFile log(m_dir.filePath(u"nginx/logs/access.log"_s));
    stopNginx(); // the next row starts with a fresh log
    QVERIFY(log.open(QIODevice::ReadOnly));
    while (!log.atEnd()) {
        std::istringstream line(log.readLine().trimmed().toStdString());
        std::string conn, proto, id, status;
        line >> conn >> proto >> id >> status;
        QCOMPARE(proto, std::string("HTTP/2.0"));
        QCOMPARE(status, std::string("200"));
        nginxConnections.insert(conn);
        ++nginxLines;
    }
    QCOMPARE(nginxLines, kRequests);
    qInfo("HTTP/2 via nginx: %d streams, %d requests over %llu client connection(s) (nginx saw %zu); "
          "client-added first-token delay p50 %.3f ms, p99 %.3f ms, max %.3f ms; TPOT error p50 %.3f %%, "
          "max %.3f %%",
          kStreams, kRequests, static_cast<unsigned long long>(connections), nginxConnections.size(),
          pct(delayMs, 50), pct(delayMs, 99), pct(delayMs, 100), pct(tpotErrPct, 50), pct(tpotErrPct, 100));
    QVERIFY(connections >= 1);
    QVERIFY(connections < std::uint64_t(kStreams));
    QVERIFY(nginxConnections.size() < std::size_t(kStreams));
    // The delay goal is the HTTP/1.1 engine's (tst_runcontroller, with retries); through a proxy hop on a
    // shared 2-core machine one descheduled read costs milliseconds (5.6 ms seen while a build ran), so this
    // bound only catches a broken path (e.g. responses buffered by the proxy); the figures above are the
    // measurement.
    QVERIFY2(pct(delayMs, 99) <= 50.0,
             "client-added first-token delay p99 through nginx > 50 ms (buffered?)");
    // Same reasoning for TPOT: a proxy that buffers shifts every request's TPOT, while one descheduled read
    // under a parallel ctest shifts a single request's by a few percent (2.3 % seen).
    QVERIFY2(pct(tpotErrPct, 50) <= 1.0,
             "median per-request TPOT differs from the server's by more than 1 %");
    QVERIFY2(pct(tpotErrPct, 100) <= 10.0, "a request's TPOT differs from the server's by more than 10 %");
}

QTEST_GUILESS_MAIN(TestHttp2)
#include "tst_http2.moc"
