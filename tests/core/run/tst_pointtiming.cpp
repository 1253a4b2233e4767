// Server timing inside real runs (core/run/pointtiming, issue 26): a campaign's endpoint names the format,
// the in-process simulator publishes it on an offset, drifting clock at time scale 10, and each point comes
// back with one breakdown per record and a summary over its measured requests — in model time, like every
// other latency of the point. A timing endpoint that cannot be reached costs notes, never the point.

#include "common/demoscenario.h"
#include "common/simulatedrun.h"
#include "core/metrics/requestmetrics.h"
#include "core/run/runcontroller.h"

#include <QTest>

#include <cmath>

using namespace Throughline;

namespace {

Scenario timedScenario(const Scenario &demo, const std::string &format)
{
    Scenario s = demo;
    s.endpoint.sim.timeScale = 10;
    s.endpoint.sim.jitter = 0;
    s.endpoint.sim.serverClockOffsetMs = 1234.5;
    s.endpoint.sim.serverClockDriftPpm = -60;
    s.endpoint.serverTiming.format = format;
    s.phase.isl = 128;
    s.phase.osl = 24;
    s.plan.concurrencies = {6};
    s.plan.requestCount = 48;
    s.plan.warmupRequests = 6;
    s.plan.minWindowS = 0.1;
    return s;
}

Result<RunOutcome> runOne(const Scenario &s)
{
    return TestSupport::runOnSimulator({s});
}

// The parts of one breakdown that have a value, summed (milliseconds).
double knownSum(const RequestBreakdown &b)
{
    double sum = 0;
    for (const PartValue &v : b.parts)
        if (std::isfinite(v.ms))
            sum += v.ms;
    return sum;
}

} // namespace

class TestPointTiming : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        auto demo = TestSupport::firstDemoScenario();
        QVERIFY2(demo.ok(), TestSupport::errorText(demo));
        m_demo = *demo;
    }

    // Dynamo nvext: epoch timestamps, so the network parts cross the clocks. Every record has a breakdown in
    // seq order; its parts add up to the request's own latency in model time (t_sched → t_end, the remainder
    // included), so nothing was scaled twice or left in wall time; the summary counts the measured requests.
    void breakdownsInModelTime()
    {
        auto out = runOne(timedScenario(m_demo, "dynamo-nvext"));
        QVERIFY2(out.ok(), out.ok() ? "" : out.error().message.c_str());
        const PointOutcome &p = out->scenarios.at(0).points.at(0);
        QCOMPARE(p.breakdowns.size(), p.records.size());
        int measured = 0;
        for (size_t i = 0; i < p.records.size(); ++i) {
            const RequestRecord &r = p.records[i];
            const RequestBreakdown &b = p.breakdowns[i];
            QCOMPARE(b.seq, r.seq);
            QVERIFY2(b.problem.empty(), b.problem.c_str());
            const double e2eMs = double(r.tEnd - r.tSched) / 1e6;
            QVERIFY2(std::abs(knownSum(b) - e2eMs) < 1e-3 * e2eMs + 0.01,
                     qPrintable(u"%1 vs %2"_qs.arg(knownSum(b)).arg(e2eMs)));
            QCOMPARE(b[BreakdownPart::Prefill].status, PartStatus::Measured);
            QVERIFY(b[BreakdownPart::NetworkUp].aligned);
            measured += !r.warmup && r.ok();
        }
        const ServerTimingSummary &t = p.result.serverTiming;
        QCOMPARE(t.format, std::string("dynamo-nvext"));
        QCOMPARE(t.requests, measured);
        QCOMPARE(t.matched, int(p.records.size()));
        QCOMPARE(t.missing, 0);
        QVERIFY(t.clockFitted);
        // The summary's prefill is the mean of the measured requests' breakdowns.
        double sum = 0;
        for (size_t i = 0; i < p.records.size(); ++i)
            if (!p.records[i].warmup && p.records[i].ok())
                sum += p.breakdowns[i][BreakdownPart::Prefill].ms;
        QVERIFY(std::abs(t[BreakdownPart::Prefill].mean - sum / measured) < 1e-9 * sum + 1e-9);
        // The server's TTFT side (queue + prefill) is on the order of the client's TTFT, not 10× off.
        const double ttftP50 = *p.result.metricValue("ttft_ms", "p50");
        QVERIFY2(t[BreakdownPart::Prefill].p50 < ttftP50 && t[BreakdownPart::Prefill].p50 > ttftP50 / 5,
                 qPrintable(u"%1 vs %2"_qs.arg(t[BreakdownPart::Prefill].p50).arg(ttftP50)));
    }

    // TensorRT-LLM's /perf_metrics asked where nothing listens: the point is measured as always, every
    // request keeps its client-side parts, the note names the URL.
    void unreachableTimingEndpoint()
    {
        Scenario s = timedScenario(m_demo, "trtllm-perf");
        s.endpoint.serverTiming.url = "http://127.0.0.1:9/perf_metrics";
        auto out = runOne(s);
        QVERIFY2(out.ok(), out.ok() ? "" : out.error().message.c_str());
        const PointOutcome &p = out->scenarios.at(0).points.at(0);
        QVERIFY(!out->scenarios[0].aborted);
        QCOMPARE(p.result.nOk, p.result.nSent);
        QCOMPARE(p.breakdowns.size(), p.records.size());
        QCOMPARE(p.breakdowns[10][BreakdownPart::ClientQueue].status, PartStatus::Measured);
        QCOMPARE(p.breakdowns[10][BreakdownPart::Prefill].status, PartStatus::Unknown);
        QCOMPARE(p.result.serverTiming.matched, 0);
        QCOMPARE(p.result.serverTiming.missing, int(p.records.size()));
        QStringList notes;
        for (const std::string &n : p.result.validity.notes)
            notes << QString::fromStdString(n);
        QVERIFY2(notes.filter(u"Server timing: "_qs).filter(u"127.0.0.1:9/perf_metrics"_qs).size() == 1,
                 qPrintable(notes.join(u'\n')));
        QVERIFY2(notes.filter(u"successful requests have none"_qs).size() == 1,
                 qPrintable(notes.join(u'\n')));
    }

private:
    Scenario m_demo;
};

QTEST_GUILESS_MAIN(TestPointTiming)
#include "tst_pointtiming.moc"
