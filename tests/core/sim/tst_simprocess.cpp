// throughline-sim as a child process: port from the first stdout line, a real request, clean SIGTERM stop.
#include "core/campaign/endpoint.h"
#include "core/sim/simprocess.h"
#include "simtestclient.h"

#include <QTest>

#include <algorithm>

using namespace Throughline;

class TestSimProcess : public QObject
{
    Q_OBJECT

private slots:
    void startRequestStop()
    {
        curl_global_init(CURL_GLOBAL_ALL);
        SimulatorOptions sim;
        sim.timeScale = 50;
        auto args = SimProcess::argumentsFor("gpt-oss-20b", "B200", 1, "FP4", sim);
        SimProcess p;
        auto port = p.start(THROUGHLINE_SIM_EXE, args);
        QVERIFY2(port.ok(), port.ok() ? "" : port.error().message.c_str());
        QVERIFY(*port > 0);
        QVERIFY(p.running());
        auto r = SimTest::request(p.baseUrl() + "/v1/completions",
                                  R"({"prompt":"abcd","max_tokens":5,"ignore_eos":true})");
        QCOMPARE(r.status, 200L);
        QVERIFY(r.body.find("\"completion_tokens\":5") != std::string::npos);
        QCOMPARE(r.header("X-Throughline-Time-Scale"), std::string("50"));
        QCOMPARE(p.stop(), 0); // SIGTERM → clean exit
        QVERIFY(p.output().find("predicted capacity") != std::string::npos);
    }

    // The campaign's slowdown options reach the child's command line only when set, and the child takes
    // them as the in-process server does (the same capacity-summary line, tst_virtualclosedloop).
    void slowdownReachesTheChild()
    {
        SimulatorOptions sim;
        sim.timeScale = 50;
        const auto plain = SimProcess::argumentsFor("gpt-oss-20b", "B200", 1, "FP4", sim);
        QVERIFY(std::none_of(plain.begin(), plain.end(),
                             [](const std::string &a) { return a.rfind("--slowdown", 0) == 0; }));
        sim.slowdownFactor = 1.25;
        sim.slowdownAfterS = 2;
        sim.slowdownPerHour = 0.5;
        const auto args = SimProcess::argumentsFor("gpt-oss-20b", "B200", 1, "FP4", sim);
        auto after = [&](const char *flag) {
            auto it = std::find(args.begin(), args.end(), std::string(flag));
            return it != args.end() && it + 1 != args.end() ? *(it + 1) : std::string();
        };
        QCOMPARE(after("--slowdown-factor"), std::string("1.25"));
        QCOMPARE(after("--slowdown-after-s"), std::string("2"));
        QCOMPARE(after("--slowdown-per-hour"), std::string("0.5"));
        SimProcess p;
        auto port = p.start(THROUGHLINE_SIM_EXE, args);
        QVERIFY2(port.ok(), port.ok() ? "" : port.error().message.c_str());
        QCOMPARE(p.stop(), 0);
        QVERIFY2(p.output().find("every step from 2 model seconds after start takes 1.25 x as long") !=
                     std::string::npos,
                 p.output().c_str());
        QVERIFY2(p.output().find("(1 + 0.5 x model hours since start)") != std::string::npos,
                 p.output().c_str());

        SimProcess bad;
        auto refused = bad.start(
            THROUGHLINE_SIM_EXE,
            {"--model", "gpt-oss-20b", "--gpu", "B200", "--port", "0", "--slowdown-factor", "0.9"}, 5000);
        QVERIFY(!refused.ok());
        QVERIFY2(refused.error().message.find("--slowdown-factor must be 1..1000") != std::string::npos,
                 refused.error().message.c_str());
    }

    // The fixed-latency options reach the child only when set; the child refuses a negative one.
    void fixedLatencyReachesTheChild()
    {
        SimulatorOptions sim;
        sim.timeScale = 50;
        const auto plain = SimProcess::argumentsFor("gpt-oss-20b", "B200", 1, "FP4", sim);
        QVERIFY(std::none_of(plain.begin(), plain.end(),
                             [](const std::string &a) { return a.rfind("--fixed", 0) == 0; }));
        sim.fixedTtftMs = 50;
        sim.fixedItlMs = 10;
        const auto args = SimProcess::argumentsFor("gpt-oss-20b", "B200", 1, "FP4", sim);
        SimProcess p;
        auto port = p.start(THROUGHLINE_SIM_EXE, args);
        QVERIFY2(port.ok(), port.ok() ? "" : port.error().message.c_str());
        QCOMPARE(p.stop(), 0);
        QVERIFY2(p.output().find("fixed latency: first token 50 ms after arrival, then one every 10 ms") !=
                     std::string::npos,
                 p.output().c_str());

        SimProcess bad;
        auto refused = bad.start(
            THROUGHLINE_SIM_EXE,
            {"--model", "gpt-oss-20b", "--gpu", "B200", "--port", "0", "--fixed-itl-ms", "-10"}, 5000);
        QVERIFY(!refused.ok());
        QVERIFY2(refused.error().message.find("--fixed-ttft-ms and --fixed-itl-ms must be 0..1e6") !=
                     std::string::npos,
                 refused.error().message.c_str());
    }

    void badArgumentsFailClearly()
    {
        SimProcess p;
        auto port = p.start(THROUGHLINE_SIM_EXE, {"--model", "no-such-model", "--gpu", "H200"}, 5000);
        QVERIFY(!port.ok());
        QVERIFY2(port.error().message.find("no-such-model") != std::string::npos,
                 port.error().message.c_str());
    }
};

QTEST_GUILESS_MAIN(TestSimProcess)
#include "tst_simprocess.moc"
