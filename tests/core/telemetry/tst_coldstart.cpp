// Cold start, "time to ready" (issue 9), end to end: a real simulated endpoint (in-process SimServer) that
// answers 503 for a configured start-up delay; RunController polls /health and /v1/models from the run's
// start (or a --ready-since moment) and times the first request. Time to ready must land within one poll
// interval of the delay; the facts reach results.json (schema-valid, round trip) and the history database
// (scenario config JSON). Also the campaign JSON round trip of endpoint.cold_start.
#include "common/demoscenario.h"
#include "core/campaign/campaignjson.h"
#include "core/run/runcontroller.h"
#include "tests/common/jsonschemavalidator.h"
#include "core/results/resultsjson.h"
#include "core/sim/simserver.h"
#include "core/run/runrecording.h"
#include "core/storage/sqlitedb.h"

#include <QDateTime>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <chrono>
#include <thread>

using namespace Throughline;
using namespace Qt::StringLiterals;

class TestColdStart : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void timeToReadyFromRunStart();
    void readySinceMoment();
    void notReadyInTime();
    void campaignRoundTrip();

private:
    // A scenario against `port` with cold start on (poll interval pollS) and one small closed-loop point.
    Scenario scenario(int port, double pollS, double timeoutS = 60) const;
    std::unique_ptr<SimServer> startSim(double notReadyS, int *port) const;
    QTemporaryDir m_dir;
    Scenario m_base;
};

void TestColdStart::initTestCase()
{
    QVERIFY(m_dir.isValid());
    auto demo = TestSupport::firstDemoScenario();
    QVERIFY2(demo.ok(), TestSupport::errorText(demo));
    m_base = *demo;
}

Scenario TestColdStart::scenario(int port, double pollS, double timeoutS) const
{
    Scenario s = m_base;
    s.endpoint.kind = Endpoint::Kind::Http;
    s.endpoint.baseUrl = "http://127.0.0.1:" + std::to_string(port);
    s.endpoint.replicaUrls.clear();
    s.endpoint.apiKeyEnv.clear();
    s.endpoint.telemetryIntervalS = 0; // not under test here
    s.endpoint.coldStart.enabled = true;
    s.endpoint.coldStart.pollIntervalS = pollS;
    s.endpoint.coldStart.timeoutS = timeoutS;
    s.plan.mode = LoadPlan::Mode::Closed;
    s.plan.concurrencies = {2};
    s.plan.requestCount = 6;
    s.plan.warmupRequests = 0;
    s.plan.minWindowS = 0.1;
    s.plan.maxDurationS = 60;
    s.plan.requestTimeoutS = 60;
    s.plan.cooldownS = 0;
    s.phase.isl = 128;
    s.phase.osl = 32;
    return s;
}

std::unique_ptr<SimServer> TestColdStart::startSim(double notReadyS, int *port) const
{
    auto o = SimServer::optionsFromCatalog(m_base.model.name, m_base.gpu.name,
                                           std::max(1, m_base.deployment.gpus), m_base.deployment.precision);
    if (!o)
        return nullptr;
    SimServerOptions opts = std::move(*o);
    opts.model = m_base.model;
    opts.timeScale = 20; // the load itself is not under test: keep it short
    opts.notReadyS = notReadyS;
    auto sim = std::make_unique<SimServer>(opts);
    auto p = sim->start();
    if (!p)
        return nullptr;
    *port = *p;
    return sim;
}

void TestColdStart::timeToReadyFromRunStart()
{
    const double delayS = 2.0, pollS = 0.25;
    int port = 0;
    auto sim = startSim(delayS, &port);
    QVERIFY(sim);
    const Scenario s = scenario(port, pollS);
    RunOptions opt;
    opt.workers = 1;
    RunController rc({s}, opt);
    auto out = rc.run();
    QVERIFY2(out.ok(), out.ok() ? "" : out.error().message.c_str());
    const ScenarioOutcome &so = out->scenarios.front();
    QVERIFY2(!so.aborted, so.abortReason.c_str());
    QCOMPARE(so.points.size(), std::size_t(1));
    QCOMPARE(so.points[0].records.size(), std::size_t(6)); // the first request is not part of the point

    const nlohmann::json &c = so.coldStart;
    qInfo("cold start: %s", c.dump().c_str());
    QVERIFY(c.is_object());
    QCOMPARE(c["since"].get<std::string>(), std::string("run_start"));
    const double ttr = c["time_to_ready_s"].get<double>();
    // The server started a few ms before the run's t=0; readiness is seen at the first poll after the delay.
    QVERIFY2(ttr >= delayS - 0.1 && ttr <= delayS + pollS + 0.1, qPrintable(QString::number(ttr)));
    QVERIFY(c["health_ok_s"].get<double>() <= c["models_ok_s"].get<double>());
    QVERIFY(c["polls"].get<int>() >= int(delayS / pollS)); // 503s while loading, then /health, /v1/models
    QVERIFY(c["polls"].get<int>() <= int(delayS / pollS) + 4);
    QVERIFY(c["first_request_ok"].get<bool>());
    const double ttft = c["first_request_ttft_ms"].get<double>(),
                 e2e = c["first_request_e2e_ms"].get<double>();
    QVERIFY(ttft > 0 && e2e >= ttft);

    // results.json: schema-valid, reads back.
    const RunResults res = runResultsFromOutcome(*out, "cold", std::string(64, '0'), {});
    const nlohmann::json doc = res.toJson();
    QVERIFY(doc["scenarios"][0]["cold_start"] == c);
    QFile sf(u":/schemas/results.schema.json"_s);
    QVERIFY(sf.open(QIODevice::ReadOnly));
    const auto problems =
        JsonSchemaValidator(nlohmann::json::parse(sf.readAll().toStdString())).validate(doc);
    QVERIFY2(problems.empty(), problems.empty() ? "" : problems.front().c_str());
    auto back = RunResults::fromJson(doc);
    QVERIFY2(back.ok(), back.ok() ? "" : back.error().message.c_str());
    QVERIFY(back->scenarios[0].coldStart == c);

    // History: inside the scenario's config JSON.
    const std::string db = m_dir.filePath(u"cold.sqlite"_s).toStdString();
    RunRecordingInfo info;
    info.campaignJson = "{}";
    auto rec = recordRun(db, *out, res, info);
    QVERIFY2(rec.ok(), rec.ok() ? "" : rec.error().message.c_str());
    SqliteDb conn;
    QVERIFY(conn.open(db, SqliteDb::Mode::ReadOnly).ok());
    auto st = conn.prepare("SELECT json_extract(config, '$.cold_start.time_to_ready_s'), "
                           "json_extract(config, '$.cold_start.first_request_ttft_ms'), "
                           "json_extract(config, '$.id') FROM scenarios");
    QVERIFY(st.ok());
    QCOMPARE(st->step(), 100);
    QCOMPARE(st->colDouble(0), ttr);
    QCOMPARE(st->colDouble(1), ttft);
    QCOMPARE(st->colText(2), s.id); // the rest of the config is kept
}

void TestColdStart::readySinceMoment()
{
    // The server starts, 0.7 s pass, then the run starts with --ready-since = the server's start: time to
    // ready counts from that moment (≈ the delay), not from the run's start (≈ delay − 0.7 s).
    const double delayS = 1.5, pollS = 0.2;
    const qint64 startedMs = QDateTime::currentMSecsSinceEpoch();
    int port = 0;
    auto sim = startSim(delayS, &port);
    QVERIFY(sim);
    std::this_thread::sleep_for(std::chrono::milliseconds(700));
    RunOptions opt;
    opt.workers = 1;
    opt.readySinceUnixMs = startedMs;
    RunController rc({scenario(port, pollS)}, opt);
    auto out = rc.run();
    QVERIFY2(out.ok(), out.ok() ? "" : out.error().message.c_str());
    const nlohmann::json &c = out->scenarios.front().coldStart;
    qInfo("cold start with --ready-since: %s", c.dump().c_str());
    QCOMPARE(c["since"].get<std::string>(), std::string("ready_since"));
    const double ttr = c["time_to_ready_s"].get<double>();
    QVERIFY2(ttr >= delayS - 0.1 && ttr <= delayS + pollS + 0.1, qPrintable(QString::number(ttr)));
    QVERIFY(!out->scenarios.front().aborted);
}

void TestColdStart::notReadyInTime()
{
    int port = 0;
    auto sim = startSim(30, &port);
    QVERIFY(sim);
    RunOptions opt;
    opt.workers = 1;
    const auto t0 = std::chrono::steady_clock::now();
    RunController rc({scenario(port, 0.1, 0.8)}, opt);
    auto out = rc.run();
    const double tookS = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    QVERIFY2(out.ok(), out.ok() ? "" : out.error().message.c_str());
    const ScenarioOutcome &so = out->scenarios.front();
    QVERIFY(so.aborted && so.endpointDown);
    QVERIFY2(so.abortReason.rfind("endpoint not ready: ", 0) == 0, so.abortReason.c_str());
    QVERIFY2(so.abortReason.find("HTTP 503") != std::string::npos, so.abortReason.c_str());
    QVERIFY(so.points.empty());
    QVERIFY(so.coldStart["time_to_ready_s"].is_null());
    QVERIFY(so.coldStart.contains("error"));
    QVERIFY2(tookS < 5, qPrintable(QString::number(tookS)));
}

void TestColdStart::campaignRoundTrip()
{
    auto campaign = TestSupport::demoCampaign();
    QVERIFY2(campaign.ok(), TestSupport::errorText(campaign));
    // Default (off): not written, so existing campaigns keep their canonical form.
    nlohmann::json j = CampaignJson::toJson(*campaign);
    for (const auto &e : j["endpoints"])
        QVERIFY(!e.contains("cold_start"));
    j["endpoints"][0]["cold_start"] = {{"enabled", true}, {"timeout_s", 120}, {"poll_interval_s", 0.5}};
    auto parsed = CampaignJson::read(j.dump());
    QVERIFY2(parsed.ok(), parsed.ok() ? "" : parsed.error().message.c_str());
    const ColdStartOptions &cs = parsed->endpoints[0].coldStart;
    QVERIFY(cs.enabled);
    QCOMPARE(cs.timeoutS, 120.0);
    QCOMPARE(cs.pollIntervalS, 0.5);
    const nlohmann::json again = CampaignJson::toJson(*parsed);
    QVERIFY(again["endpoints"][0]["cold_start"] == j["endpoints"][0]["cold_start"]);
    auto twice = CampaignJson::read(again.dump());
    QVERIFY(twice.ok());
    QVERIFY(twice->endpoints[0] == parsed->endpoints[0]);

    // Bad values name the field.
    j["endpoints"][0]["cold_start"] = {{"enabled", true}, {"poll_interval_s", 0}};
    auto bad = CampaignJson::read(j.dump());
    QVERIFY(!bad.ok());
    QVERIFY2(bad.error().message.find("cold_start/poll_interval_s") != std::string::npos,
             bad.error().message.c_str());
    j["endpoints"][0]["cold_start"] = {{"enabled", true}, {"typo", 1}};
    auto unknown = CampaignJson::read(j.dump());
    QVERIFY(!unknown.ok());
    QVERIFY2(unknown.error().message.find("typo") != std::string::npos, unknown.error().message.c_str());
}

QTEST_GUILESS_MAIN(TestColdStart)
#include "tst_coldstart.moc"
