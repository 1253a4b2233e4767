// RunController wiring of server telemetry against the real simulator (throughline-sim child process):
// the scraped KV/queue series cover every point's window on the client's (model) time axis, the per-point
// summary lands in results.json (schema-valid) and in storage (telemetry_series, telemetry_sources,
// point_telemetry); an injected mid-stream stall is found; dead telemetry URLs (closed port, HTTP 500) are
// counted and leave the output throughput within 2 % of a run without telemetry.
#include "common/demoscenario.h"
#include "core/run/runcontroller.h"
#include "tests/common/jsonschemavalidator.h"
#include "core/results/resultsjson.h"
#include "core/storage/runbundle.h"
#include "core/run/runrecording.h"
#include "core/storage/sqlitedb.h"
#include "core/telemetry/commonseries.h"
#include "loopbackserver.h"
#include "simchildlauncher.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <map>
#include <set>
#include <thread>

using namespace Throughline;
using namespace Qt::StringLiterals;

namespace {

// Answers every connection with HTTP 500 (a broken exporter), on its own thread.
struct Http500Server : LoopbackHttpServer {
    Http500Server()
        : LoopbackHttpServer([] {
            return std::string("HTTP/1.1 500 Internal Server Error\r\nContent-Length: 5\r\n"
                               "Connection: close\r\n\r\nbroke");
        })
    {
    }
};

// A DCGM exporter on loopback: serves the fixture exposition (dcgm-exporter's default counters, two GPUs)
// with DCGM_FI_DEV_POWER_USAGE replaced by power(gpu, t), t = seconds since construction (steady clock).
class DcgmServer
{
public:
    explicit DcgmServer(std::string exposition)
        : m_text(std::move(exposition))
        , m_epoch(std::chrono::steady_clock::now())
        , m_server([this] { return reply(); })
    {
    }
    int port() const { return m_server.port(); }
    int served() const { return m_server.served(); }
    std::chrono::steady_clock::time_point epoch() const { return m_epoch; }

    // Watts of GPU g at t seconds: the fixture's base value, a ramp and a sine (period 1.3 s).
    static double power(int g, double t)
    {
        return (g == 0 ? 350.5 : 410.25) + 40.0 * t + 80.0 * std::sin(2 * M_PI * t / kPeriodS);
    }
    // ∫ power(g, t) dt over [a, b] in joules.
    static double energy(int g, double a, double b)
    {
        const double base = g == 0 ? 350.5 : 410.25;
        return base * (b - a) + 20.0 * (b * b - a * a) +
               80.0 * kPeriodS / (2 * M_PI) *
                   (std::cos(2 * M_PI * a / kPeriodS) - std::cos(2 * M_PI * b / kPeriodS));
    }

private:
    static constexpr double kPeriodS = 1.3;
    // The exposition at this moment (server thread).
    std::string reply() const
    {
        const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - m_epoch).count();
        std::string body;
        std::size_t pos = 0;
        while (pos < m_text.size()) {
            std::size_t end = m_text.find('\n', pos);
            if (end == std::string::npos)
                end = m_text.size();
            std::string line = m_text.substr(pos, end - pos);
            if (line.rfind("DCGM_FI_DEV_POWER_USAGE{", 0) == 0) {
                const int g = line.find("gpu=\"1\"") != std::string::npos ? 1 : 0;
                char v[64];
                std::snprintf(v, sizeof v, "%.6f", power(g, t));
                line = line.substr(0, line.rfind(' ') + 1) + v;
            }
            body += line + '\n';
            pos = end + 1;
        }
        return "HTTP/1.1 200 OK\r\nContent-Type: text/plain; version=0.0.4\r\n"
               "Content-Length: " +
               std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n" + body;
    }
    std::string m_text;
    std::chrono::steady_clock::time_point m_epoch;
    LoopbackHttpServer m_server; // last: its thread stops before the text goes
};

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n == 0 ? std::nan("") : n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

const TelemetrySeries *seriesOf(const TelemetrySnapshot &s, const char *name)
{
    const TelemetrySeries *best = nullptr;
    for (const TelemetrySeries *x : s.findAll(name))
        if (!best || x->samples.size() > best->samples.size())
            best = x;
    return best;
}

std::map<std::string, std::string> readFaults(const QString &path)
{
    std::map<std::string, std::string> m;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return m;
    while (!f.atEnd()) {
        const auto j = nlohmann::json::parse(f.readLine().toStdString(), nullptr, false);
        if (!j.is_discarded() && j.contains("request_id"))
            m[j["request_id"].get<std::string>()] =
                j["fault"].is_string() ? j["fault"].get<std::string>() : "";
    }
    return m;
}

} // namespace

class TestRunTelemetry : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void seriesAlignedAndStored();
    void queuePastKvCapacity();
    void injectedStallNoted();
    void failingScrapeLeavesThroughput();
    void energyPerTokenFromDcgm();

private:
    Scenario scenario(const std::vector<int> &concurrencies, int requests, double timeScale) const;
    SimLauncher launcher(const QString &truthPath, const std::string &faults = {}) const;
    Result<RunOutcome> run(const Scenario &s, const SimLauncher &l, RunOptions opt = {}) const;
    QTemporaryDir m_dir;
    Scenario m_chat;
};

void TestRunTelemetry::initTestCase()
{
    QVERIFY(m_dir.isValid());
    auto demo = TestSupport::firstDemoScenario();
    QVERIFY2(demo.ok(), TestSupport::errorText(demo));
    m_chat = *demo;
}

Scenario TestRunTelemetry::scenario(const std::vector<int> &concurrencies, int requests,
                                    double timeScale) const
{
    Scenario s = m_chat;
    s.endpoint.kind = Endpoint::Kind::Simulated;
    s.endpoint.sim.timeScale = timeScale;
    s.endpoint.sim.jitter = 0;
    s.endpoint.telemetryIntervalS = 0.5; // model time
    s.plan.mode = LoadPlan::Mode::Closed;
    s.plan.concurrencies = concurrencies;
    s.plan.requestCount = requests;
    s.plan.warmupRequests = 0;
    s.plan.minWindowS = 0.1;
    s.plan.maxDurationS = 60;
    s.plan.requestTimeoutS = 60;
    s.phase.osl = 128;
    return s;
}

SimLauncher TestRunTelemetry::launcher(const QString &truthPath, const std::string &faults) const
{
    return simChildLauncher(truthPath, faults, 5);
}

Result<RunOutcome> TestRunTelemetry::run(const Scenario &s, const SimLauncher &l, RunOptions opt) const
{
    opt.workers = 2;
    opt.simLauncher = l;
    RunController rc({s}, opt);
    return rc.run();
}

void TestRunTelemetry::seriesAlignedAndStored()
{
    // Time scale 4: model time runs 4× faster; series must come back on the records' (model) time axis.
    const Scenario s = scenario({2, 48}, 96, 4.0);
    auto out = run(s, launcher({}));
    QVERIFY2(out.ok(), out.ok() ? "" : out.error().message.c_str());
    QCOMPARE(out->scenarios.size(), std::size_t(1));
    const ScenarioOutcome &so = out->scenarios.front();
    QVERIFY2(!so.aborted, so.abortReason.c_str());
    QCOMPARE(so.points.size(), std::size_t(2));

    const TelemetrySnapshot &t = so.telemetry;
    QCOMPARE(t.sources.size(), std::size_t(1));
    QVERIFY(t.sources[0].scrapesOk > 3);
    QCOMPARE(t.sources[0].scrapesFailed, 0);
    const TelemetrySeries *kv = seriesOf(t, CommonSeries::kKvCacheUsage);
    const TelemetrySeries *waiting = seriesOf(t, CommonSeries::kWaiting);
    const TelemetrySeries *running = seriesOf(t, CommonSeries::kRunning);
    QVERIFY(kv && waiting && running);

    // Model-time interval: 0.5 s. Every point's window has samples within one interval of both edges.
    const std::int64_t intervalNs = 500'000'000;
    for (const PointOutcome &po : so.points) {
        const auto w0 = static_cast<std::int64_t>(po.result.w0S * 1e9);
        const auto w1 = static_cast<std::int64_t>(po.result.w1S * 1e9);
        QVERIFY(w1 > w0);
        for (const TelemetrySeries *x : {kv, waiting, running}) {
            std::int64_t first = -1, last = -1;
            int inside = 0;
            for (const TelemetrySample &smp : x->samples) {
                if (smp.tNs < w0 || smp.tNs > w1)
                    continue;
                first = first < 0 ? smp.tNs : first;
                last = smp.tNs;
                ++inside;
            }
            QVERIFY2(inside >= 1, qPrintable(QString::fromStdString(x->name)));
            // Generous by one extra interval for a descheduled scrape on this shared 2-core machine.
            QVERIFY2(first - w0 <= 2 * intervalNs, qPrintable(QStringLiteral("%1 first %2 w0 %3")
                                                                  .arg(QString::fromStdString(x->name))
                                                                  .arg(first)
                                                                  .arg(w0)));
            QVERIFY2(w1 - last <= 2 * intervalNs, qPrintable(QStringLiteral("%1 last %2 w1 %3")
                                                                 .arg(QString::fromStdString(x->name))
                                                                 .arg(last)
                                                                 .arg(w1)));
        }
        const auto &tm = po.result.telemetry;
        QVERIFY(tm.count("scrapes") && tm.at("scrapes") >= 1);
        QCOMPARE(tm.at("scrape_failures"), 0.0);
        QVERIFY(tm.count("kv_cache_usage_peak") && tm.count("running_mean") && tm.count("waiting_mean"));
        QVERIFY(tm.count("stalled_requests"));
        QVERIFY(po.telemetry.contains("stalls") && po.telemetry.contains("telemetry"));
    }
    // No stall at C=2 (the relative threshold's 250 ms floor is wall time: 1 s of model time here).
    QCOMPARE(so.points[0].result.telemetry.at("stalled_requests"), 0.0);
    // More load → more running requests and more KV in use (the simulator's model: B grows with C).
    const auto &lo = so.points[0].result.telemetry, &hi = so.points[1].result.telemetry;
    qInfo("C=2: running_mean %.2f kv_peak %.4f | C=48: running_mean %.2f kv_peak %.4f waiting_mean %.2f",
          lo.at("running_mean"), lo.at("kv_cache_usage_peak"), hi.at("running_mean"),
          hi.at("kv_cache_usage_peak"), hi.at("waiting_mean"));
    QVERIFY(lo.at("running_mean") <= 2.5);
    QVERIFY(hi.at("running_mean") > 4 * lo.at("running_mean"));
    QVERIFY(hi.at("kv_cache_usage_peak") > lo.at("kv_cache_usage_peak"));

    // results.json (as `run` builds it): schema-valid with the telemetry object, and it reads back.
    const RunResults res = runResultsFromOutcome(*out, "telemetry", std::string(64, '0'), {});
    const nlohmann::json doc = res.toJson();
    QVERIFY(doc["scenarios"][0]["points"][1]["telemetry"].contains("kv_cache_usage_peak"));
    QFile sf(u":/schemas/results.schema.json"_s);
    QVERIFY(sf.open(QIODevice::ReadOnly));
    const auto problems =
        JsonSchemaValidator(nlohmann::json::parse(sf.readAll().toStdString())).validate(doc);
    QVERIFY2(problems.empty(), problems.empty() ? "" : problems.front().c_str());
    auto back = RunResults::fromJson(doc);
    QVERIFY2(back.ok(), back.ok() ? "" : back.error().message.c_str());
    QCOMPARE(back->scenarios[0].points[1].telemetry, so.points[1].result.telemetry);

    // Storage through the recorder the CLI and the GUI use: series with sample blobs, source status, one
    // summary row per point.
    const std::string db = m_dir.filePath(u"history.sqlite"_s).toStdString();
    RunRecordingInfo info;
    info.campaignJson = "{}";
    auto rec = recordRun(db, *out, res, info);
    QVERIFY2(rec.ok(), rec.ok() ? "" : rec.error().message.c_str());
    SqliteDb conn;
    QVERIFY(conn.open(db, SqliteDb::Mode::ReadOnly).ok());
    QCOMPARE(*conn.queryInt("SELECT count(*) FROM point_telemetry"), std::int64_t(2));
    QCOMPARE(*conn.queryInt("SELECT count(*) FROM point_telemetry WHERE kv_cache_usage_peak > 0 AND "
                            "scrape_failures = 0 AND summary LIKE '%\"stalls\"%'"),
             std::int64_t(2));
    QCOMPARE(*conn.queryInt("SELECT sum(scrapes_failed) FROM telemetry_sources"), std::int64_t(0));
    auto st = conn.prepare("SELECT samples FROM telemetry_series WHERE metric = 'kv_cache_usage' AND "
                           "scenario_id IS NOT NULL ORDER BY length(samples) DESC LIMIT 1");
    QVERIFY(st.ok());
    QCOMPARE(st->step(), 100);
    int size = 0;
    const auto *blob = static_cast<const char *>(st->colBlob(0, size));
    QCOMPARE(static_cast<std::size_t>(size), kv->samples.size() * 16);
    for (std::size_t k = 0; k < kv->samples.size(); ++k) {
        std::int64_t tNs = 0;
        double v = 0;
        std::memcpy(&tNs, blob + k * 16, 8);
        std::memcpy(&v, blob + k * 16 + 8, 8);
        QCOMPARE(tNs, kv->samples[k].tNs);
        QCOMPARE(v, kv->samples[k].value);
    }
    QVERIFY(*conn.queryInt("SELECT count(*) FROM telemetry_series WHERE metric = 'waiting'") >= 1);

    // A run bundle carries the telemetry along (RunCopier).
    const std::string bundle = m_dir.filePath(u"run.tlrun"_s).toStdString();
    auto ex = RunBundle::exportRun(db, out->runId, bundle);
    QVERIFY2(ex.ok(), ex.ok() ? "" : ex.error().message.c_str());
    SqliteDb b;
    QVERIFY(b.open(bundle, SqliteDb::Mode::ReadOnly).ok());
    for (const char *table : {"point_telemetry", "telemetry_sources", "telemetry_series"})
        QCOMPARE(*b.queryInt(std::string("SELECT count(*) FROM ") + table),
                 *conn.queryInt(std::string("SELECT count(*) FROM ") + table));
    QCOMPARE(*b.queryInt("SELECT count(*) FROM telemetry_series s JOIN scenarios c ON c.id = s.scenario_id"),
             *conn.queryInt("SELECT count(*) FROM telemetry_series"));
}

void TestRunTelemetry::queuePastKvCapacity()
{
    // Llama-3.3-70B BF16 on 2×H100 holds B = 7 sequences at ISL 1024 / OSL 64 (tst_simtelemetry): at C = 21
    // the server queues the rest and the KV cache runs near full; at C = 3 hardly anything waits.
    Scenario s = scenario({3, 21}, 42, 20.0);
    s.model.name = "Llama-3.3-70B-Instruct";
    s.gpu.name = "H100";
    s.deployment.gpus = 2;
    s.deployment.precision = "BF16";
    s.phase.isl = 1024;
    s.phase.osl = 64;
    s.endpoint.telemetryIntervalS = 1.0; // 50 ms wall
    auto out = run(s, launcher({}));
    QVERIFY2(out.ok(), out.ok() ? "" : out.error().message.c_str());
    const ScenarioOutcome &so = out->scenarios.front();
    QVERIFY2(!so.aborted, so.abortReason.c_str());
    QCOMPARE(so.points.size(), std::size_t(2));
    const auto &lo = so.points[0].result.telemetry, &hi = so.points[1].result.telemetry;
    qInfo("C=3: waiting_mean %.2f kv_peak %.3f | C=21: waiting_mean %.1f waiting_peak %.1f running_mean %.1f "
          "kv_peak %.3f",
          lo.at("waiting_mean"), lo.at("kv_cache_usage_peak"), hi.at("waiting_mean"), hi.at("waiting_peak"),
          hi.at("running_mean"), hi.at("kv_cache_usage_peak"));
    // Mean queue ≈ C − B = 14 above capacity (more while the point ramps up, at most C − 1); below it only a
    // request waiting for its prefill now and then.
    QVERIFY(lo.at("waiting_mean") < 1);
    QVERIFY(hi.at("waiting_mean") >= 10 && hi.at("waiting_mean") <= 20);
    QVERIFY(hi.at("running_mean") <= 8);
    QVERIFY(hi.at("kv_cache_usage_peak") > 0.8);
    QVERIFY(lo.at("kv_cache_usage_peak") < 0.6); // 3 of 7 sequences' worth
}

void TestRunTelemetry::injectedStallNoted()
{
    // 30 % of the streams pause 1.5 s (model time) mid-stream; the detector must name exactly those.
    const QString truth = m_dir.filePath(u"truth_stall.jsonl"_s);
    const Scenario s = scenario({4}, 24, 2.0);
    RunOptions opt;
    opt.stallTimeoutS = 30; // the engine must not cut these streams off
    opt.stalls.worstCount = 64;
    auto out = run(s, launcher(truth, "stall=0.3:1.5"), opt);
    QVERIFY2(out.ok(), out.ok() ? "" : out.error().message.c_str());
    const ScenarioOutcome &so = out->scenarios.front();
    QCOMPARE(so.points.size(), std::size_t(1));
    const PointOutcome &po = so.points.front();
    const auto faults = readFaults(truth);
    std::set<std::uint64_t> injected;
    for (const RequestRecord &r : po.records)
        if (auto it = faults.find(out->runId + "-" + std::to_string(r.seq));
            it != faults.end() && it->second == "stall")
            injected.insert(r.seq);
    QVERIFY2(!injected.empty(), "the simulator injected no stall (seed changed?)");
    std::set<std::uint64_t> found;
    for (const auto &w : po.telemetry["stalls"]["worst"])
        found.insert(w["seq"].get<std::uint64_t>());
    QString a, b;
    for (auto x : injected)
        a += QString::number(x) + u' ';
    for (auto x : found)
        b += QString::number(x) + u' ';
    qInfo("injected stalls: %s; detected: %s", qPrintable(a), qPrintable(b));
    QCOMPARE(static_cast<std::size_t>(po.result.telemetry.at("stalled_requests")), injected.size());
    QCOMPARE(found, injected);
    QVERIFY(po.result.telemetry.at("stall_longest_gap_ms") >= 1400);
    bool noted = false;
    for (const std::string &n : po.result.validity.notes)
        noted = noted || n.rfind("stalls: ", 0) == 0;
    QVERIFY(noted);
}

void TestRunTelemetry::failingScrapeLeavesThroughput()
{
    // Same deterministic simulator run three points each: without telemetry, and with two dead extra
    // telemetry URLs (a closed port and an exporter answering 500) scraped every 100 ms (wall) next to
    // /metrics.
    // Output tokens/s medians must agree within 2 % and every failure must be counted.
    Http500Server broken;
    Scenario base = scenario({16, 16, 16}, 64, 4.0);
    Scenario failing = base;
    failing.endpoint.telemetryIntervalS = 0.4; // 100 ms wall at time scale 4
    failing.endpoint.telemetryUrls = {"http://127.0.0.1:" + std::to_string(unusedLoopbackPort()) + "/metrics",
                                      "http://127.0.0.1:" + std::to_string(broken.port()) + "/metrics"};
    base.endpoint.telemetryIntervalS = 0; // off

    bool within = false;
    for (int attempt = 1; attempt <= 2 && !within; ++attempt) {
        auto plain = run(base, launcher({}));
        auto withT = run(failing, launcher({}));
        QVERIFY(plain.ok() && withT.ok());
        const ScenarioOutcome &a = plain->scenarios.front(), &b = withT->scenarios.front();
        QVERIFY2(!a.aborted && !b.aborted, (a.abortReason + b.abortReason).c_str());
        QCOMPARE(a.points.size(), std::size_t(3));
        QCOMPARE(b.points.size(), std::size_t(3));
        QVERIFY(a.telemetry.sources.empty());
        QVERIFY(a.points[0].result.telemetry.count("scrapes") == 0);

        QCOMPARE(b.telemetry.sources.size(), std::size_t(3));
        QVERIFY(b.telemetry.sources[0].scrapesOk > 0); // the simulator's own /metrics still works
        for (std::size_t i = 1; i < 3; ++i) {
            QVERIFY2(b.telemetry.sources[i].scrapesFailed > 3, b.telemetry.sources[i].url.c_str());
            QCOMPARE(b.telemetry.sources[i].scrapesOk, 0);
            QVERIFY(!b.telemetry.sources[i].lastError.empty());
        }
        for (const PointOutcome &po : b.points) {
            QVERIFY(po.result.telemetry.at("scrape_failures") >= 2);
            bool noted = false;
            for (const std::string &n : po.result.validity.notes)
                noted = noted || n.rfind("telemetry: ", 0) == 0;
            QVERIFY(noted);
        }
        QVERIFY(broken.served() > 3);

        std::vector<double> ta, tb;
        for (const PointOutcome &po : a.points)
            ta.push_back(po.result.metrics.outputTps);
        for (const PointOutcome &po : b.points)
            tb.push_back(po.result.metrics.outputTps);
        const double ma = median(ta), mb = median(tb);
        const double diff = std::abs(mb - ma) / ma * 100;
        qInfo("attempt %d: output_tps median without telemetry %.1f, with failing telemetry %.1f (%.2f %%); "
              "failed scrapes %d + %d",
              attempt, ma, mb, diff, b.telemetry.sources[1].scrapesFailed,
              b.telemetry.sources[2].scrapesFailed);
        within = diff <= 2.0;
    }
    QVERIFY2(within, "output throughput with failing telemetry differs by more than 2 %");
}

void TestRunTelemetry::energyPerTokenFromDcgm()
{
    // A DCGM exporter (two GPUs, power changing as a ramp + sine) as an extra telemetry URL of a short
    // simulated run at time scale 1 (model time = wall time): the point's energy_j must equal ∫ power dt over
    // its window (both GPUs) and energy_per_output_token_j that energy ÷ the window's output tokens, each
    // within 2 %. Both references are computed here from first principles (the served power function; the
    // records' content events), not from the telemetry store.
    QFile f(QStringLiteral(THROUGHLINE_TEST_DATA_DIR "/telemetry/dcgm_exporter_2gpu.prom.txt"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    DcgmServer dcgm(f.readAll().toStdString());
    Scenario s = scenario({8}, 32, 1.0);
    s.endpoint.telemetryIntervalS = 0.1;
    s.endpoint.telemetryUrls = {"http://127.0.0.1:" + std::to_string(dcgm.port()) + "/metrics"};
    auto out = run(s, launcher({}));
    QVERIFY2(out.ok(), out.ok() ? "" : out.error().message.c_str());
    const ScenarioOutcome &so = out->scenarios.front();
    QVERIFY2(!so.aborted, so.abortReason.c_str());
    QCOMPARE(so.points.size(), std::size_t(1));
    QCOMPARE(so.telemetry.sources.size(), std::size_t(2));
    QCOMPARE(so.telemetry.sources[1].scrapesFailed, 0);
    QVERIFY(dcgm.served() > 5);
    const PointOutcome &po = so.points.front();
    const auto &tm = po.result.telemetry;
    QVERIFY(tm.count("energy_j") && tm.count("energy_per_output_token_j") && tm.count("gpu_power_w_mean"));

    // Window in run-clock seconds → the server's clock (its epoch vs the run's t=0).
    const double offsetS =
        static_cast<double>(
            out->t0SteadyNs -
            std::chrono::duration_cast<std::chrono::nanoseconds>(dcgm.epoch().time_since_epoch()).count()) /
        1e9;
    const double a = po.result.w0S + offsetS, b = po.result.w1S + offsetS;
    const double expectJ = DcgmServer::energy(0, a, b) + DcgmServer::energy(1, a, b);

    // Output tokens of content events inside [W0, W1] (per-event counts, else N_out spread evenly).
    double tokens = 0;
    const auto w0 = static_cast<std::int64_t>(po.result.w0S * 1e9),
               w1 = static_cast<std::int64_t>(po.result.w1S * 1e9);
    for (const RequestRecord &r : po.records) {
        int content = 0;
        for (const StreamEvent &e : r.events)
            content += e.kind == StreamEvent::Kind::Content;
        if (content == 0)
            continue;
        const double spread = r.nOut > 0 ? double(r.nOut) / content : 1.0;
        for (const StreamEvent &e : r.events) {
            const std::int64_t t = e.tNs;
            if (e.kind == StreamEvent::Kind::Content && t >= w0 && t <= w1)
                tokens += e.tokens >= 0 ? double(e.tokens) : spread;
        }
    }
    QVERIFY(tokens > 100);
    const double gotJ = tm.at("energy_j"), gotPerToken = tm.at("energy_per_output_token_j");
    qInfo("window %.3f s: energy %.1f J (expected %.1f J, %+.2f %%); %.0f output tokens; %.4f J/token "
          "(expected "
          "%.4f, %+.2f %%); mean power %.1f W; %d DCGM scrapes",
          po.result.w1S - po.result.w0S, gotJ, expectJ, (gotJ / expectJ - 1) * 100, tokens, gotPerToken,
          expectJ / tokens, (gotPerToken / (expectJ / tokens) - 1) * 100, tm.at("gpu_power_w_mean"),
          dcgm.served());
    QVERIFY(std::abs(gotJ / expectJ - 1) <= 0.02);
    QVERIFY(std::abs(gotPerToken / (expectJ / tokens) - 1) <= 0.02);
    const double meanW = expectJ / (b - a);
    QVERIFY(std::abs(tm.at("gpu_power_w_mean") / meanW - 1) <= 0.05); // sample mean vs time mean
}

QTEST_GUILESS_MAIN(TestRunTelemetry)
#include "tst_runtelemetry.moc"
