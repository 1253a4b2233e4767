// Loopback tests of the simulated endpoint's HTTP behaviour (libcurl against a real SimServer).
#include "core/campaign/catalog.h"
#include "core/sim/simserver.h"
#include "simtestclient.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <nlohmann/json.hpp>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <memory>

using namespace Throughline;
using nlohmann::json;

namespace {

SimServerOptions baseOptions(const char *model = "gpt-oss-120b")
{
    auto o = SimServer::optionsFromCatalog(model, "H200", 1, "FP8");
    if (!o)
        qFatal("%s", o.error().message.c_str());
    o->timeScale = 20; // fast: these tests check shapes, not timing
    return *o;
}

std::vector<json> dataEvents(const SimTest::Reply &r, bool *sawDone = nullptr)
{
    std::vector<json> out;
    for (const auto &[t, e] : r.events()) {
        if (e.rfind("data: ", 0) != 0)
            continue;
        const std::string payload = e.substr(6);
        if (payload == "[DONE]") {
            if (sawDone)
                *sawDone = true;
            continue;
        }
        out.push_back(json::parse(payload, nullptr, false));
    }
    return out;
}

// Raw socket: connect, send, read until EOF or timeout. Returns what was read; *eofS = time to EOF.
std::string rawExchange(int port, const std::string &send, double timeoutS, double *eofS = nullptr)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(std::uint16_t(port));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd, reinterpret_cast<sockaddr *>(&a), sizeof a) != 0) {
        ::close(fd);
        return "<connect failed>";
    }
    if (!send.empty())
        (void)!::write(fd, send.data(), send.size());
    std::string got;
    const double t0 = SimTest::nowS();
    if (eofS)
        *eofS = -1;
    while (SimTest::nowS() - t0 < timeoutS) {
        pollfd p{fd, POLLIN, 0};
        if (::poll(&p, 1, 50) <= 0)
            continue;
        char buf[4096];
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n <= 0) {
            if (eofS)
                *eofS = SimTest::nowS() - t0;
            break;
        }
        got.append(buf, size_t(n));
    }
    ::close(fd);
    return got;
}

} // namespace

class TestSimServer : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<SimServer> m_server;
    std::string m_base;

    std::string url(const char *path) const { return m_base + path; }

private slots:
    void initTestCase()
    {
        curl_global_init(CURL_GLOBAL_ALL);
        m_server = std::make_unique<SimServer>(baseOptions());
        auto port = m_server->start("127.0.0.1", 0);
        QVERIFY2(port.ok(), port.ok() ? "" : port.error().message.c_str());
        QVERIFY(*port > 0);
        m_base = "http://127.0.0.1:" + std::to_string(*port);
    }
    void cleanupTestCase()
    {
        m_server->stop();
        m_server.reset();
    }

    void chatStreamShape()
    {
        const std::string body =
            R"({"model":"gpt-oss-120b","messages":[{"role":"user","content":"Hello world, how are you?"}],
            "max_tokens":9,"ignore_eos":true,"stream":true,"stream_options":{"include_usage":true}})";
        auto r = SimTest::request(url("/v1/chat/completions"), body,
                                  SimTest::Options{{"X-Request-Id: run-1-42"}, {}, 30000, {}});
        QCOMPARE(r.code, CURLE_OK);
        QCOMPARE(r.status, 200L);
        QCOMPARE(r.header("X-Request-Id"), std::string("run-1-42"));
        QCOMPARE(r.header("X-Throughline-Time-Scale"), std::string("20"));
        QVERIFY(r.header("Content-Type").find("text/event-stream") == 0);
        bool done = false;
        auto ev = dataEvents(r, &done);
        QVERIFY(done);
        QCOMPARE(ev.size(), size_t(1 + 9 + 1)); // role, 9 tokens, usage
        QCOMPARE(ev[0]["choices"][0]["delta"]["role"].get<std::string>(), std::string("assistant"));
        QCOMPARE(ev[0]["object"].get<std::string>(), std::string("chat.completion.chunk"));
        int reasoning = 0, content = 0;
        for (size_t i = 1; i <= 9; ++i) {
            const auto &d = ev[i]["choices"][0]["delta"];
            if (d.contains("reasoning")) {
                QCOMPARE(content, 0); // reasoning comes first
                ++reasoning;
            } else {
                QVERIFY(d["content"].is_string());
                ++content;
            }
            QCOMPARE(ev[i]["choices"][0]["finish_reason"].is_null(), i < 9);
            QVERIFY(!ev[i].contains("usage"));
        }
        QVERIFY(reasoning > 0); // gpt-oss is a reasoning model
        QVERIFY(content > 0);
        QCOMPARE(ev[9]["choices"][0]["finish_reason"].get<std::string>(), std::string("length"));
        QVERIFY(ev[10]["choices"].empty()); // usage in a final chunk with empty choices
        QCOMPARE(ev[10]["usage"]["completion_tokens"].get<int>(), 9);
        QCOMPARE(ev[10]["usage"]["prompt_tokens"].get<int>(),
                 int((std::string("Hello world, how are you?").size() + 3) / 4));
    }

    void completionsStreamShape()
    {
        auto r = SimTest::request(url("/v1/completions"),
                                  R"({"prompt":"abcdefghijkl","max_tokens":4,"ignore_eos":true,"stream":true,
                                      "stream_options":{"include_usage":true}})");
        QCOMPARE(r.status, 200L);
        bool done = false;
        auto ev = dataEvents(r, &done);
        QVERIFY(done);
        QCOMPARE(ev.size(), size_t(4)); // no role chunk in completions; usage rides in the last chunk
        for (size_t i = 0; i < 4; ++i) {
            QCOMPARE(ev[i]["object"].get<std::string>(), std::string("text_completion"));
            QVERIFY(ev[i]["choices"][0]["text"].is_string());
            QCOMPARE(ev[i].contains("usage"), i == 3);
        }
        QCOMPARE(ev[3]["usage"]["completion_tokens"].get<int>(), 4);
        QCOMPARE(ev[3]["usage"]["prompt_tokens"].get<int>(), 3);
        // continuous_usage_stats: every chunk carries running usage.
        auto c = SimTest::request(url("/v1/completions"),
                                  R"({"prompt":"abcd","max_tokens":3,"ignore_eos":true,"stream":true,
                                      "stream_options":{"include_usage":true,"continuous_usage_stats":true}})");
        auto ce = dataEvents(c);
        QCOMPARE(ce.size(), size_t(3));
        for (size_t i = 0; i < 3; ++i)
            QCOMPARE(ce[i]["usage"]["completion_tokens"].get<int>(), int(i + 1));
        // Without include_usage: no usage anywhere.
        auto n = SimTest::request(
            url("/v1/chat/completions"),
            R"({"messages":[{"role":"user","content":"x"}],"max_tokens":2,"ignore_eos":true,"stream":true})");
        for (const auto &e : dataEvents(n))
            QVERIFY(!e.contains("usage"));
    }

    void nonStreaming()
    {
        auto r = SimTest::request(
            url("/v1/chat/completions"),
            R"({"messages":[{"role":"user","content":"abcdefgh"}],"max_completion_tokens":6,"ignore_eos":true})");
        QCOMPARE(r.status, 200L);
        auto j = json::parse(r.body);
        QCOMPARE(j["object"].get<std::string>(), std::string("chat.completion"));
        QCOMPARE(j["usage"]["completion_tokens"].get<int>(), 6);
        QCOMPARE(j["usage"]["prompt_tokens"].get<int>(), 2);
        QCOMPARE(j["choices"][0]["finish_reason"].get<std::string>(), std::string("length"));
        QVERIFY(j["choices"][0]["message"]["content"].is_string());
    }

    void forcedOutputLength_data()
    {
        QTest::addColumn<QString>("extra");
        QTest::addColumn<int>("expected");
        QTest::newRow("ignore_eos") << QStringLiteral(R"("max_tokens":17,"ignore_eos":true)") << 17;
        QTest::newRow("nvext") << QStringLiteral(R"("max_tokens":13,"nvext":{"ignore_eos":true})") << 13;
        QTest::newRow("min_tokens") << QStringLiteral(R"("max_tokens":600,"min_tokens":600)") << 600;
    }
    void forcedOutputLength()
    {
        QFETCH(QString, extra);
        QFETCH(int, expected);
        const std::string body =
            R"({"prompt":[1,2,3],"stream":true,"stream_options":{"include_usage":true},)" +
            extra.toStdString() + "}";
        auto r = SimTest::request(url("/v1/completions"), body);
        QCOMPARE(r.status, 200L);
        auto ev = dataEvents(r);
        QCOMPARE(int(ev.size()), expected);
        QCOMPARE(ev.back()["usage"]["completion_tokens"].get<int>(), expected);
        QCOMPARE(ev.back()["choices"][0]["finish_reason"].get<std::string>(), std::string("length"));
    }

    void naturalLengthStops()
    {
        // Without ignore_eos the output ends at a seeded natural length: "stop" when shorter than max_tokens.
        int stops = 0;
        for (int i = 0; i < 10; ++i) {
            auto r = SimTest::request(url("/v1/completions"), R"({"prompt":"ab","max_tokens":100000})");
            auto j = json::parse(r.body);
            const int n = j["usage"]["completion_tokens"];
            QVERIFY(n >= 1 && n <= 2 * 256 + 1);
            stops += j["choices"][0]["finish_reason"] == "stop";
        }
        QCOMPARE(stops, 10);
    }

    void tokenIdPrompt()
    {
        json ids = json::array();
        for (int i = 0; i < 321; ++i)
            ids.push_back(i * 7);
        json body = {{"prompt", ids}, {"max_tokens", 2}, {"ignore_eos", true}};
        auto r = SimTest::request(url("/v1/completions"), body.dump());
        QCOMPARE(r.status, 200L);
        QCOMPARE(json::parse(r.body)["usage"]["prompt_tokens"].get<int>(), 321);
        json batch1 = {{"prompt", json::array({ids})}, {"max_tokens", 1}};
        QCOMPARE(json::parse(
                     SimTest::request(url("/v1/completions"), batch1.dump()).body)["usage"]["prompt_tokens"]
                     .get<int>(),
                 321);
    }

    void errors()
    {
        auto bad = SimTest::request(url("/v1/chat/completions"), "{not json");
        QCOMPARE(bad.status, 400L);
        auto bj = json::parse(bad.body);
        QCOMPARE(bj["error"]["code"].get<int>(), 400);
        QVERIFY(bj["error"]["message"].get<std::string>().find("JSON") != std::string::npos);
        QCOMPARE(bad.header("X-Throughline-Time-Scale"), std::string("20"));

        auto unknown = SimTest::request(url("/v1/chat/completions"),
                                        R"({"model":"nope","messages":[{"role":"user","content":"x"}]})");
        QCOMPARE(unknown.status, 404L);
        QVERIFY(json::parse(unknown.body)["error"]["message"].get<std::string>().find("nope") !=
                std::string::npos);

        auto longPrompt =
            SimTest::request(url("/v1/completions"), R"({"prompt":[1,2,3,4],"max_tokens":131070})");
        QCOMPARE(longPrompt.status, 400L);
        QVERIFY(json::parse(longPrompt.body)["error"]["message"].get<std::string>().find(
                    "maximum context length is 131072") != std::string::npos);

        auto noMessages = SimTest::request(url("/v1/chat/completions"), R"({"messages":[]})");
        QCOMPARE(noMessages.status, 400L);
        auto badMax = SimTest::request(url("/v1/completions"), R"({"prompt":"x","max_tokens":0})");
        QCOMPARE(badMax.status, 400L);
        auto path = SimTest::request(url("/v1/nothing"));
        QCOMPARE(path.status, 404L);

        // 429: a server whose waiting queue holds nothing.
        auto o = baseOptions();
        o.limits.maxWaiting = 0;
        SimServer s(o);
        auto port = s.start("127.0.0.1", 0);
        QVERIFY(port.ok());
        auto busy = SimTest::request("http://127.0.0.1:" + std::to_string(*port) + "/v1/completions",
                                     R"({"prompt":"x","max_tokens":1})");
        QCOMPARE(busy.status, 429L);
        QCOMPARE(json::parse(busy.body)["error"]["code"].get<int>(), 429);
    }

    void modelsHealthMetrics()
    {
        auto m = SimTest::request(url("/v1/models"));
        QCOMPARE(m.status, 200L);
        auto mj = json::parse(m.body);
        QCOMPARE(mj["data"][0]["id"].get<std::string>(), std::string("gpt-oss-120b"));
        QCOMPARE(mj["data"][0]["max_model_len"].get<int>(), 131072);
        auto h = SimTest::request(url("/health"));
        QCOMPARE(h.status, 200L);
        QCOMPARE(json::parse(h.body)["time_scale"].get<double>(), 20.0);
        auto met = SimTest::request(url("/metrics"));
        QCOMPARE(met.status, 200L);
        for (const char *name :
             {"vllm:num_requests_running", "vllm:num_requests_waiting", "vllm:kv_cache_usage_perc",
              "vllm:prompt_tokens_total", "vllm:generation_tokens_total",
              "vllm:time_to_first_token_seconds_bucket", "vllm:inter_token_latency_seconds_count",
              "vllm:e2e_request_latency_seconds_sum"})
            QVERIFY2(met.body.find(name) != std::string::npos, name);
        QVERIFY(met.body.find("vllm:gpu_cache_usage_perc") == std::string::npos);
    }

    void roleChunkAtAdmission()
    {
        // Real time, long prompt: the role chunk must arrive before the prefill, the first token after it.
        auto o = baseOptions();
        o.timeScale = 1;
        SimServer s(o);
        auto port = s.start("127.0.0.1", 0);
        QVERIFY(port.ok());
        const double prefillS = s.model().prefillS(6000);
        QVERIFY(prefillS > 0.3);
        json ids = json::array();
        for (int i = 0; i < 6000; ++i)
            ids.push_back(i % 1000);
        // Chat has no token-id prompts: 24,000 bytes of text = 6,000 tokens with the bytes/4 counter.
        json body = {{"messages", {{{"role", "user"}, {"content", std::string(24000, 'a')}}}},
                     {"max_tokens", 2},
                     {"ignore_eos", true},
                     {"stream", true}};
        auto r = SimTest::request("http://127.0.0.1:" + std::to_string(*port) + "/v1/chat/completions",
                                  body.dump());
        QCOMPARE(r.status, 200L);
        auto ev = r.events();
        QVERIFY(ev.size() >= 3);
        QVERIFY(ev[0].second.find("\"role\":\"assistant\"") != std::string::npos);
        const double role = ev[0].first - r.tSend;
        const double first = ev[1].first - r.tSend;
        std::printf("prefill %.3f s: role chunk after %.3f s, first token after %.3f s\n", prefillS, role,
                    first);
        QVERIFY(role < 0.1);
        QVERIFY(first - role > 0.9 * prefillS);
        QVERIFY(first - role < 1.3 * prefillS + 0.05);
    }

    void boundedInputs()
    {
        auto o = baseOptions();
        o.limits.maxBodyBytes = 1024;
        o.limits.maxHeaderBytes = 2048;
        o.limits.maxConnections = 3;
        o.limits.idleTimeoutS = 1.0;
        SimServer s(o);
        auto port = s.start("127.0.0.1", 0);
        QVERIFY(port.ok());
        const std::string base = "http://127.0.0.1:" + std::to_string(*port);
        // Oversize body → 413.
        auto big = SimTest::request(base + "/v1/completions",
                                    std::string("{\"prompt\":\"") + std::string(5000, 'x') + "\"}");
        QVERIFY2(big.status == 413L || big.code != CURLE_OK, std::to_string(big.status).c_str());
        // Oversize header → 431 (or the connection closes).
        auto hdr = SimTest::request(base + "/health", {},
                                    SimTest::Options{{"X-Big: " + std::string(4000, 'y')}, {}, 30000, {}});
        QVERIFY(hdr.status == 431L || hdr.code != CURLE_OK);
        // Garbage request line → 400 and close.
        double eof = -1;
        auto garbage = rawExchange(*port, "\x01\x02 garbage garbage\r\n\r\n", 2.0, &eof);
        QVERIFY2(garbage.rfind("HTTP/1.1 400", 0) == 0 || eof >= 0, garbage.c_str());
        QVERIFY(eof >= 0 && eof < 1.5);
        // Idle connection is closed after the idle timeout.
        double idleEof = -1;
        rawExchange(*port, "", 3.0, &idleEof);
        QVERIFY2(idleEof > 0.8 && idleEof < 2.5, std::to_string(idleEof).c_str());
        // Connections above the limit: 503 + close (or EOF) within 1 s; the server keeps serving.
        std::vector<int> held;
        for (int i = 0; i < 3; ++i) {
            const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
            sockaddr_in a{};
            a.sin_family = AF_INET;
            a.sin_port = htons(std::uint16_t(*port));
            a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
            QCOMPARE(::connect(fd, reinterpret_cast<sockaddr *>(&a), sizeof a), 0);
            held.push_back(fd);
        }
        QTest::qWait(100);
        double extraEof = -1;
        auto extra = rawExchange(*port, "GET /health HTTP/1.1\r\nHost: x\r\n\r\n", 2.0, &extraEof);
        QVERIFY2(extra.rfind("HTTP/1.1 503", 0) == 0 || extra.empty(), extra.c_str());
        QVERIFY(extraEof >= 0 && extraEof < 1.0);
        QVERIFY(s.stats().connectionsRejected >= 1);
        for (int fd : held)
            ::close(fd);
        QTest::qWait(100);
        auto ok = SimTest::request(base + "/health");
        QCOMPARE(ok.status, 200L);
    }

    void faults_data()
    {
        QTest::addColumn<QString>("spec");
        QTest::newRow("http500") << QStringLiteral("http500=1");
        QTest::newRow("http503") << QStringLiteral("http503=1");
        QTest::newRow("error_event") << QStringLiteral("error_event=1");
        QTest::newRow("disconnect") << QStringLiteral("disconnect=1");
        QTest::newRow("malformed") << QStringLiteral("malformed=1");
        QTest::newRow("stall") << QStringLiteral("stall=1:0.6");
        QTest::newRow("slow_first_byte") << QStringLiteral("slow_first_byte=1:0.6");
    }
    void faults()
    {
        QFETCH(QString, spec);
        auto f = FaultSpec::parse(spec.toStdString());
        QVERIFY(f.ok());
        auto o = baseOptions();
        o.faults = *f;
        o.timeScale = 50;
        SimServer s(o);
        auto port = s.start("127.0.0.1", 0);
        QVERIFY(port.ok());
        auto r = SimTest::request("http://127.0.0.1:" + std::to_string(*port) + "/v1/completions",
                                  R"({"prompt":"abcd","max_tokens":20,"ignore_eos":true,"stream":true})");
        const std::string name = spec.toStdString();
        if (name.rfind("http500", 0) == 0)
            QCOMPARE(r.status, 500L);
        else if (name.rfind("http503", 0) == 0)
            QCOMPARE(r.status, 503L);
        else if (name.rfind("error_event", 0) == 0) {
            QCOMPARE(r.status, 200L);
            QVERIFY(r.body.find("data: {\"error\":") != std::string::npos);
            QVERIFY(r.body.find("\"text\"") != std::string::npos); // some tokens came first
        } else if (name.rfind("disconnect", 0) == 0) {
            QVERIFY(r.code != CURLE_OK); // chunked stream cut short
            QVERIFY(r.body.find("[DONE]") == std::string::npos);
        } else if (name.rfind("malformed", 0) == 0) {
            QCOMPARE(r.code, CURLE_OK);
            QVERIFY(r.body.find("BROKEN") != std::string::npos);
            QVERIFY(r.body.find("[DONE]") != std::string::npos);
        } else if (name.rfind("stall", 0) == 0) {
            QCOMPARE(r.code, CURLE_OK);
            double maxGap = 0;
            auto ev = r.events();
            for (size_t i = 1; i < ev.size(); ++i)
                maxGap = std::max(maxGap, ev[i].first - ev[i - 1].first);
            QVERIFY2(maxGap >= 0.55, std::to_string(maxGap).c_str());
        } else if (name.rfind("slow_first_byte", 0) == 0) {
            QCOMPARE(r.code, CURLE_OK);
            QVERIFY(!r.reads.empty());
            QVERIFY(r.reads.front().first - r.tSend >= 0.55);
        }
        // A second request on a fresh connection still works (no crash), fault or not.
        auto h = SimTest::request("http://127.0.0.1:" + std::to_string(*port) + "/health");
        QCOMPARE(h.status, 200L);
        QVERIFY(!FaultSpec::parse("bogus=1").ok());
        QVERIFY(!FaultSpec::parse("http500=2").ok());
    }

    void tls()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString d = dir.path();
        auto run = [&](const QStringList &args) {
            QProcess p;
            p.setWorkingDirectory(d);
            p.start(QStringLiteral("openssl"), args);
            QVERIFY(p.waitForFinished(30000));
            QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        };
        // Throwaway CA, then a server certificate for 127.0.0.1 signed by it.
        run({u"req"_qs, u"-x509"_qs, u"-newkey"_qs, u"rsa:2048"_qs, u"-nodes"_qs, u"-days"_qs, u"1"_qs,
             u"-subj"_qs, u"/CN=Throughline Test CA"_qs, u"-keyout"_qs, u"ca.key"_qs, u"-out"_qs,
             u"ca.pem"_qs});
        run({u"req"_qs, u"-newkey"_qs, u"rsa:2048"_qs, u"-nodes"_qs, u"-subj"_qs, u"/CN=127.0.0.1"_qs,
             u"-keyout"_qs, u"server.key"_qs, u"-out"_qs, u"server.csr"_qs});
        QFile ext(d + u"/ext.cnf"_qs);
        QVERIFY(ext.open(QIODevice::WriteOnly));
        ext.write("subjectAltName=IP:127.0.0.1,DNS:localhost\n");
        ext.close();
        run({u"x509"_qs, u"-req"_qs, u"-in"_qs, u"server.csr"_qs, u"-CA"_qs, u"ca.pem"_qs, u"-CAkey"_qs,
             u"ca.key"_qs, u"-CAcreateserial"_qs, u"-days"_qs, u"1"_qs, u"-extfile"_qs, u"ext.cnf"_qs,
             u"-out"_qs, u"server.pem"_qs});
        auto o = baseOptions();
        o.tlsCertFile = QString(d + u"/server.pem"_qs).toStdString();
        o.tlsKeyFile = QString(d + u"/server.key"_qs).toStdString();
        SimServer s(o);
        auto port = s.start("127.0.0.1", 0);
        QVERIFY2(port.ok(), port.ok() ? "" : port.error().message.c_str());
        QVERIFY(s.tls());
        SimTest::Options co;
        co.caFile = QString(d + u"/ca.pem"_qs).toStdString();
        auto r = SimTest::request(
            "https://127.0.0.1:" + std::to_string(*port) + "/v1/chat/completions",
            R"({"messages":[{"role":"user","content":"hi"}],"max_tokens":3,"ignore_eos":true,"stream":true})",
            co);
        QCOMPARE(r.code, CURLE_OK);
        QCOMPARE(r.status, 200L);
        QCOMPARE(dataEvents(r).size(), size_t(4));
        // Without the CA the certificate is rejected.
        auto noCa = SimTest::request("https://127.0.0.1:" + std::to_string(*port) + "/health");
        QVERIFY(noCa.code != CURLE_OK);
        // Missing key file: a clear error.
        auto o2 = baseOptions();
        o2.tlsCertFile = o.tlsCertFile;
        o2.tlsKeyFile = QString(d + u"/missing.key"_qs).toStdString();
        SimServer s2(o2);
        auto bad = s2.start("127.0.0.1", 0);
        QVERIFY(!bad.ok());
    }

    void disaggregated()
    {
        auto o = baseOptions("Llama-3.3-70B-Instruct");
        o.prefillGpus = 2;
        o.decodeGpus = 1;
        SimServer s(o);
        auto port = s.start("127.0.0.1", 0);
        QVERIFY(port.ok());
        auto r = SimTest::request("http://127.0.0.1:" + std::to_string(*port) + "/v1/completions",
                                  R"({"prompt":"abcdefgh","max_tokens":12,"ignore_eos":true,"stream":true,
                                      "stream_options":{"include_usage":true}})");
        QCOMPARE(r.status, 200L);
        auto ev = dataEvents(r);
        QCOMPARE(ev.size(), size_t(12));
        QCOMPARE(ev.back()["usage"]["completion_tokens"].get<int>(), 12);
        QVERIFY(s.capacitySummary().find("1 decode") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestSimServer)
#include "tst_simserver.moc"
