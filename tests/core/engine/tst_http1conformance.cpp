// The direct read path's HTTP/1.1 reader against libcurl (docs/metrics.md "Read paths"): every raw stream
// in ../shared/data/samples/sse/, framed chunked, by Content-Length and until close, yields the same SSE
// events through Http1ResponseReader — with the bytes split at every position — as through libcurl reading
// the same bytes from a loopback socket; whole requests through the Worker on both read paths give the same
// records (events, token counts, error classes), over keep-alive connections, for good and broken responses;
// and the request bytes carry the same headers and body as libcurl's.
#include "core/engine/http1request.h"
#include "core/engine/http1response.h"
#include "core/engine/sseparser.h"
#include "core/engine/worker.h"
#include "rawhttpserver.h"

#include <curl/curl.h>

#include <QDir>
#include <QFile>
#include <QTest>

#include <mutex>

using namespace Throughline;

namespace {

struct Framed {
    const char *name;
    std::string wire;
};

std::string sampleDir()
{
    return THROUGHLINE_SHARED_DIR "/data/samples/sse/";
}

// A sample's headers (the files with a status line carry the server's own) and body.
struct Sample {
    std::string name, headers, body;
};

std::vector<Sample> samples()
{
    std::vector<Sample> out;
    const QDir dir(QString::fromStdString(sampleDir()));
    for (const QString &f : dir.entryList(QDir::Files, QDir::Name)) {
        QFile file(dir.filePath(f));
        if (!file.open(QIODevice::ReadOnly))
            continue;
        std::string text = file.readAll().toStdString();
        Sample s{f.toStdString(), "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n", text};
        if (text.rfind("HTTP/1.1 ", 0) == 0) {
            const std::size_t end = text.find("\r\n\r\n");
            // The captured headers without their framing ones: each variant adds its own.
            std::string h;
            std::size_t p = 0;
            const std::string head = text.substr(0, end + 2);
            while (p < head.size()) {
                const std::size_t nl = head.find("\r\n", p);
                const std::string line = head.substr(p, nl - p);
                if (line.rfind("Transfer-Encoding", 0) != 0 && line.rfind("Content-Length", 0) != 0)
                    h += line + "\r\n";
                p = nl + 2;
            }
            s.headers = h;
            s.body = text.substr(end + 4);
        }
        out.push_back(std::move(s));
    }
    return out;
}

std::string chunked(const std::string &body, std::size_t piece, bool extensions)
{
    std::string out;
    char size[32];
    for (std::size_t p = 0; p < body.size(); p += piece) {
        const std::size_t n = std::min(piece, body.size() - p);
        std::snprintf(size, sizeof size, extensions ? "%zX;x=1\r\n" : "%zx\r\n", n);
        out += size;
        out += body.substr(p, n);
        out += "\r\n";
    }
    return out + "0\r\n\r\n";
}

// Chunks at event boundaries, as servers send them.
std::string chunkedPerEvent(const std::string &body)
{
    std::string out;
    char size[32];
    std::size_t p = 0;
    while (p < body.size()) {
        std::size_t e = body.find("\n\n", p);
        e = e == std::string::npos ? body.size() : e + 2;
        std::snprintf(size, sizeof size, "%zx\r\n", e - p);
        out += size + body.substr(p, e - p) + "\r\n";
        p = e;
    }
    return out + "0\r\nX-Trailer: 1\r\n\r\n";
}

std::vector<Framed> framings(const Sample &s)
{
    return {
        {"chunked per event", s.headers + "Transfer-Encoding: chunked\r\n\r\n" + chunkedPerEvent(s.body)},
        {"chunked 7 bytes", s.headers + "Transfer-Encoding: chunked\r\n\r\n" + chunked(s.body, 7, true)},
        {"content-length",
         s.headers + "Content-Length: " + std::to_string(s.body.size()) + "\r\n\r\n" + s.body},
        {"until close", s.headers + "Connection: close\r\n\r\n" + s.body},
    };
}

std::vector<std::string> eventsOf(SseParser &parser)
{
    std::vector<std::string> out;
    parser.drain([&](const SseParser::Event &e) { out.emplace_back(e.data); });
    return out;
}

bool toParser(void *parser, const char *data, std::size_t len)
{
    return static_cast<SseParser *>(parser)->feed(data, len, 0);
}

// The reader over wire bytes fed in two pieces split at `at`; the events, or a failure.
std::vector<std::string> readerEvents(const std::string &wire, std::size_t at, bool &done)
{
    SseParser parser;
    Http1ResponseReader r;
    r.feed(wire.data(), at, &toParser, &parser);
    auto o = r.feed(wire.data() + at, wire.size() - at, &toParser, &parser);
    if (o == Http1ResponseReader::Outcome::NeedMore)
        o = r.finishAtClose();
    done = o == Http1ResponseReader::Outcome::Done;
    return eventsOf(parser);
}

std::size_t curlToParser(char *data, std::size_t size, std::size_t n, void *parser)
{
    static_cast<SseParser *>(parser)->feed(data, size * n, 0);
    return size * n;
}

// libcurl reading the same bytes from a loopback socket.
std::vector<std::string> curlEvents(RawHttpServer &server, const std::string &wire, CURLcode &rc)
{
    server.setResponse(wire);
    SseParser parser;
    CURL *e = curl_easy_init();
    const std::string url = "http://127.0.0.1:" + std::to_string(server.port()) + "/v1/chat/completions";
    curl_easy_setopt(e, CURLOPT_URL, url.c_str());
    curl_easy_setopt(e, CURLOPT_POSTFIELDS, "{}");
    curl_easy_setopt(e, CURLOPT_HTTP_VERSION, static_cast<long>(CURL_HTTP_VERSION_1_1));
    curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, &curlToParser);
    curl_easy_setopt(e, CURLOPT_WRITEDATA, &parser);
    rc = curl_easy_perform(e);
    curl_easy_cleanup(e);
    return eventsOf(parser);
}

} // namespace

class TestHttp1Conformance : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { curl_global_init(CURL_GLOBAL_ALL); }
    void samplesSplitAtEveryByte();
    void readerFramingAndErrors();
    void workerPathsAgree();
    void requestBytesMatchLibcurl();
    void targets();

private:
    std::vector<RequestRecord> runThroughWorker(RawHttpServer &server,
                                                const std::vector<std::string> &responses,
                                                Endpoint::ReadPath path);
};

void TestHttp1Conformance::samplesSplitAtEveryByte()
{
    RawHttpServer server;
    const auto all = samples();
    QVERIFY2(all.size() >= 9, "the SSE samples are missing");
    // Every byte in the ordinary build (about 6 s). Under AddressSanitizer, ten times slower, every 11th
    // byte plus the first 512 (headers and the first events): the ordinary ctest run holds every split.
#if defined(__SANITIZE_ADDRESS__)
    constexpr std::size_t kStride = 11;
#else
    constexpr std::size_t kStride = 1;
#endif
    std::size_t splits = 0;
    for (const Sample &s : all) {
        for (const Framed &f : framings(s)) {
            CURLcode rc = CURLE_OK;
            const std::vector<std::string> reference = curlEvents(server, f.wire, rc);
            const QByteArray what = QByteArray::fromStdString(s.name + " / " + f.name);
            QVERIFY2(rc == CURLE_OK, QByteArray(what + ": " + curl_easy_strerror(rc)).constData());
            QVERIFY2(!reference.empty(), what.constData());
            for (std::size_t at = 0; at <= f.wire.size(); at += at < 512 ? 1 : kStride, ++splits) {
                bool done = false;
                const std::vector<std::string> events = readerEvents(f.wire, at, done);
                if (!done || events != reference)
                    QFAIL(QByteArray(what + " split at byte " + QByteArray::number(qulonglong(at)) + ": " +
                                     QByteArray::number(qulonglong(events.size())) + " events vs libcurl's " +
                                     QByteArray::number(qulonglong(reference.size())))
                              .constData());
            }
        }
    }
    qInfo("%zu files x 4 framings, %zu splits: identical events", all.size(), splits);
}

void TestHttp1Conformance::readerFramingAndErrors()
{
    auto read = [](const std::string &wire) {
        Http1ResponseReader r;
        std::string body;
        auto sink = [](void *b, const char *d, std::size_t n) {
            static_cast<std::string *>(b)->append(d, n);
            return true;
        };
        r.feed(wire.data(), wire.size(), sink, &body);
        return std::make_pair(std::move(r), body);
    };
    {
        auto [r, body] = read("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\nContent-Length: 3\n\nabc");
        QVERIFY(r.done());
        QCOMPARE(r.status(), 200);
        QCOMPARE(body, std::string("abc"));
        QVERIFY(r.reusable());
    }
    {
        auto [r, body] = read("HTTP/1.1 204 No Content\r\n\r\n");
        QVERIFY(r.done());
        QVERIFY(body.empty());
    }
    {
        auto [r, body] = read("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 1\r\n\r\nx");
        QVERIFY(r.done());
        QVERIFY(!r.reusable());
    }
    {
        auto [r, body] = read("HTTP/1.0 200 OK\r\nContent-Length: 1\r\n\r\nx");
        QVERIFY(r.done());
        QVERIFY(!r.reusable()); // HTTP/1.0 without keep-alive
        QCOMPARE(r.minorVersion(), 0);
    }
    {
        auto [r, body] = read("HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nxy");
        QVERIFY(r.done());
        QCOMPARE(r.trailingBytes(), std::size_t(1));
        QVERIFY(!r.reusable()); // something after the response: not reused
    }
    {
        auto [r, body] = read("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 99\r\n\r\n"
                              "2\r\nab\r\n0\r\n\r\n");
        QVERIFY(r.done()); // Transfer-Encoding wins over Content-Length
        QCOMPARE(body, std::string("ab"));
    }
    const std::pair<const char *, Http1ResponseReader::Failure> broken[] = {
        {"HTTP/2 200\r\n\r\n", Http1ResponseReader::Failure::BadHeaders},
        {"ICY 200 OK\r\n\r\n", Http1ResponseReader::Failure::NotHttp},
        {"HTTP/1.1 200 OK\r\nContent-Length: x\r\n\r\n", Http1ResponseReader::Failure::BadHeaders},
        {"HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
         Http1ResponseReader::Failure::BadHeaders},
        {"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
         Http1ResponseReader::Failure::BadChunk},
        {"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n",
         Http1ResponseReader::Failure::BadChunk},
    };
    for (const auto &[wire, failure] : broken) {
        auto [r, body] = read(wire);
        QVERIFY2(r.failure() == failure, wire);
        QVERIFY2(!r.error().empty(), wire);
    }
    {
        auto [r, body] = read("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc");
        QCOMPARE(int(r.finishAtClose()), int(Http1ResponseReader::Outcome::Failed));
        QCOMPARE(int(r.failure()), int(Http1ResponseReader::Failure::ClosedEarly));
    }
    {
        Http1ResponseReader r;
        QCOMPARE(int(r.finishAtClose()), int(Http1ResponseReader::Outcome::Failed));
        QCOMPARE(int(r.failure()), int(Http1ResponseReader::Failure::NothingReceived));
    }
    {
        const std::string huge = "HTTP/1.1 200 OK\r\nX: " + std::string(70000, 'a') + "\r\n\r\n";
        auto [r, body] = read(huge);
        QCOMPARE(int(r.failure()), int(Http1ResponseReader::Failure::BadHeaders));
        QVERIFY(r.error().find("64 KiB") != std::string::npos);
    }
}

std::vector<RequestRecord> TestHttp1Conformance::runThroughWorker(RawHttpServer &server,
                                                                  const std::vector<std::string> &responses,
                                                                  Endpoint::ReadPath path)
{
    std::mutex mutex;
    std::vector<RequestRecord> done;
    Worker worker(0, Worker::Clock::now(), [&](RequestRecord &&r, std::uint64_t, int) {
        std::lock_guard lock(mutex);
        done.push_back(std::move(r));
    });
    worker.start();
    auto opts = std::make_shared<TransferOptions>();
    opts->readPath = path;
    opts->stallTimeoutS = 1;
    for (std::size_t i = 0; i < responses.size(); ++i) {
        server.setResponse(responses[i]);
        WorkItem w;
        w.request.url = "http://127.0.0.1:" + std::to_string(server.port()) + "/v1/chat/completions";
        w.request.body = R"({"model":"m","stream":true})";
        w.request.headers = {"Content-Type: application/json", "Accept: text/event-stream"};
        w.record.seq = i;
        w.record.intendedOsl = 0;
        w.record.tSched = worker.nowNs();
        w.options = opts;
        worker.submit(std::move(w));
        // One at a time: the server answers each request with the response set for it.
        [[maybe_unused]] const bool finished = QTest::qWaitFor(
            [&] {
                std::lock_guard lock(mutex);
                return done.size() == i + 1;
            },
            10000);
    }
    worker.stop();
    return done;
}

void TestHttp1Conformance::workerPathsAgree()
{
    std::vector<std::string> responses;
    for (const Sample &s : samples())
        for (const Framed &f : framings(s))
            responses.push_back(f.wire);
    // Broken ones: a 500 with a body, a bad chunk, a close inside the body, garbage instead of a status line,
    // a response cut inside its headers.
    responses.push_back("HTTP/1.1 500 Internal Server Error\r\nContent-Length: 9\r\n\r\noverload!");
    responses.push_back("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\nzz\r\n");
    responses.push_back("HTTP/1.1 200 OK\r\nContent-Length: 999\r\nConnection: close\r\n\r\ndata: {}\n\n");
    responses.push_back("ICY 200 OK\r\nConnection: close\r\n\r\n");
    responses.push_back(samples().front().headers + "Content-Length: 6\r\n\r\ndata: ");
    std::vector<std::vector<RequestRecord>> byPath;
    std::vector<int> connections;
    for (Endpoint::ReadPath path : {Endpoint::ReadPath::Libcurl, Endpoint::ReadPath::Auto}) {
        RawHttpServer server;
        byPath.push_back(runThroughWorker(server, responses, path));
        connections.push_back(server.connections());
        QCOMPARE(byPath.back().size(), responses.size());
    }
    const auto &curl = byPath[0];
    const auto &direct = byPath[1];
    for (std::size_t i = 0; i < responses.size(); ++i) {
        const QByteArray what = "response " + QByteArray::number(qulonglong(i));
        QCOMPARE(curl[i].readPath, RequestRecord::ReadPath::Libcurl);
        QCOMPARE(direct[i].readPath, RequestRecord::ReadPath::DirectHttp1);
        const QByteArray details =
            what + ": " + QByteArray::fromStdString(curl[i].errorDetail + " vs " + direct[i].errorDetail);
        QVERIFY2(curl[i].error == direct[i].error, details.constData());
        QVERIFY2(direct[i].errorDetail == curl[i].errorDetail, details.constData());
        QCOMPARE(direct[i].httpStatus, curl[i].httpStatus);
        QCOMPARE(direct[i].nOut, curl[i].nOut);
        QCOMPARE(direct[i].events.size(), curl[i].events.size());
        for (std::size_t k = 0; k < curl[i].events.size(); ++k) {
            QCOMPARE(int(direct[i].events[k].kind), int(curl[i].events[k].kind));
            QCOMPARE(int(direct[i].events[k].tokens), int(curl[i].events[k].tokens));
        }
    }
    // One deliberate difference: a response cut inside its headers. libcurl 7.88 ends that transfer with
    // CURLE_OK and no body (the request would count as a success without a single event); the direct path
    // calls it what it is.
    {
        RawHttpServer server;
        const auto cut = runThroughWorker(
            server, {"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n"},
            Endpoint::ReadPath::Auto);
        QCOMPARE(cut.size(), std::size_t(1));
        QCOMPARE(cut[0].error, ErrorClass::Connect); // no body byte came: as a refused or reset connection
        QCOMPARE(cut[0].errorDetail, std::string("Transferred a partial file"));
    }
    // Keep-alive: both paths open a connection only where the previous response closed one (or broke it).
    QCOMPARE(connections[1], connections[0]);
}

void TestHttp1Conformance::requestBytesMatchLibcurl()
{
    const std::string ok = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n";
    std::vector<std::vector<std::string>> seen;
    RawHttpServer server;
    for (Endpoint::ReadPath path : {Endpoint::ReadPath::Libcurl, Endpoint::ReadPath::Auto}) {
        runThroughWorker(server, {ok}, path);
        const std::vector<std::string> requests = server.requests();
        QCOMPARE(requests.size(), seen.size() + 1);
        // Header lines as a set (their order differs), then the body.
        const std::string &req = requests.back();
        const std::size_t end = req.find("\r\n\r\n");
        std::vector<std::string> lines;
        for (std::size_t p = 0; p < end;) {
            const std::size_t nl = req.find("\r\n", p);
            lines.push_back(req.substr(p, nl - p));
            p = nl + 2;
        }
        std::sort(lines.begin() + 1, lines.end());
        lines.push_back(req.substr(end + 4));
        seen.push_back(lines);
    }
    for (std::size_t i = 0; i < std::max(seen[0].size(), seen[1].size()); ++i)
        QCOMPARE(QString::fromStdString(i < seen[1].size() ? seen[1][i] : std::string()),
                 QString::fromStdString(i < seen[0].size() ? seen[0][i] : std::string()));
    QCOMPARE(seen[1].front(), std::string("POST /v1/chat/completions HTTP/1.1"));
}

void TestHttp1Conformance::targets()
{
    auto t = http1Target("http://127.0.0.1:8000/v1/chat/completions?x=1");
    QVERIFY(t);
    QCOMPARE(t->origin, std::string("127.0.0.1:8000"));
    QCOMPARE(t->hostHeader, std::string("127.0.0.1:8000"));
    QCOMPARE(t->path, std::string("/v1/chat/completions?x=1"));
    t = http1Target("http://example.org/v1");
    QVERIFY(t);
    QCOMPARE(t->origin, std::string("example.org:80"));
    QCOMPARE(t->hostHeader, std::string("example.org"));
    t = http1Target("http://[::1]:9000");
    QVERIFY(t);
    QCOMPARE(t->origin, std::string("[::1]:9000"));
    QCOMPARE(t->path, std::string("/"));
    QVERIFY(!http1Target("https://127.0.0.1:8000/v1"));
    QVERIFY(!http1Target("http://user:pw@127.0.0.1/v1"));
    QVERIFY(!http1Target("http://127.0.0.1:80x/v1"));
    qputenv("http_proxy", "http://proxy:3128");
    QVERIFY(proxyMayApply("http://example.org/v1"));
    QVERIFY(!proxyMayApply("http://127.0.0.1:8000/v1")); // loopback never goes through a proxy
    qunsetenv("http_proxy");
    QVERIFY(!proxyMayApply("http://example.org/v1"));
}

QTEST_GUILESS_MAIN(TestHttp1Conformance)
#include "tst_http1conformance.moc"
