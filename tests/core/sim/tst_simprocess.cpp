// throughline-sim as a child process: port from the first stdout line, a real request, clean SIGTERM stop.
#include "core/campaign/endpoint.h"
#include "core/sim/simprocess.h"
#include "simtestclient.h"

#include <QTest>

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
