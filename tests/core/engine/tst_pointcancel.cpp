// A load point stopped at its max duration must account for every request it sent, however long cancelling
// them takes. Cancelling thousands of streams takes seconds (each closes its socket); the controller used to
// wait a fixed 1.5 s for their records, so at 16,384 streams the last few hundred came back after the point
// had closed: missing from it (bench_streams hold reported them as streams without a first token, with no
// client error) and counted into the next point instead. Here a few streams against throughline-sim (a child
// process, real loopback), with Worker::setCancelCostForTesting() making each cancellation as slow as it is
// at scale, so the whole cancellation outlasts 1.5 s.
#include "common/demoscenario.h"
#include "core/run/runcontroller.h"
#include "core/engine/worker.h"
#include "simchildlauncher.h"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace Throughline;
using namespace Qt::StringLiterals;

class TestPointCancel : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanup();
    void truncatedPointKeepsEveryRecord();
    void lateRecordsStayOutOfTheNextScenario();

private:
    // Closed loop against the simulator at time scale 1: streams of minutes, so every point ends at its max
    // duration with all of them in flight.
    Scenario longStreams(std::vector<int> concurrencies, double maxDurationS) const;
    static RunOptions oneWorkerChildSim(double idleCheckTimeoutS);

    Scenario m_chat;
};

Scenario TestPointCancel::longStreams(std::vector<int> concurrencies, double maxDurationS) const
{
    Scenario s = m_chat;
    s.endpoint.kind = Endpoint::Kind::Simulated;
    s.endpoint.sim.timeScale = 1.0;
    s.endpoint.sim.jitter = 0;
    s.plan.mode = LoadPlan::Mode::Closed;
    s.plan.concurrencies = std::move(concurrencies);
    s.plan.requestCount = 100000; // never reached: every point ends at its max duration
    s.plan.warmupRequests = 0;
    s.plan.rampUpS = 0;
    s.plan.minWindowS = 0.1;
    s.plan.maxDurationS = maxDurationS;
    s.plan.cooldownS = 0;
    s.plan.requestTimeoutS = 600;
    s.phase.osl = 20000; // minutes of decoding: still streaming when the point is stopped
    return s;
}

RunOptions TestPointCancel::oneWorkerChildSim(double idleCheckTimeoutS)
{
    RunOptions opt;
    opt.workers = 1;
    opt.graceS = 0;
    opt.idleCheckTimeoutS = idleCheckTimeoutS;
    opt.scrapeTelemetry = false;
    opt.simLauncher = simChildLauncher();
    return opt;
}

void TestPointCancel::initTestCase()
{
    auto demo = TestSupport::firstDemoScenario();
    QVERIFY2(demo.ok(), TestSupport::errorText(demo));
    m_chat = *demo;
}

void TestPointCancel::cleanup()
{
    Worker::setCancelCostForTesting(std::chrono::microseconds(0));
}

void TestPointCancel::truncatedPointKeepsEveryRecord()
{
    constexpr int kFirst = 24;   // streams of the first point, all in flight at its max duration
    constexpr int kSecond = 6;   // the next point on the same endpoint
    constexpr int kCostMs = 150; // per cancelled stream: 24 × 150 ms = 3.6 s on the one worker
    const Scenario s = longStreams({kFirst, kSecond}, 2);
    const RunOptions opt = oneWorkerChildSim(3);
    Worker::setCancelCostForTesting(std::chrono::milliseconds(kCostMs));
    RunController rc({s}, opt);
    QElapsedTimer clock;
    clock.start();
    Result<RunOutcome> out = rc.run();
    qInfo("run took %lld ms", static_cast<long long>(clock.elapsed()));
    QVERIFY2(out.ok(), TestSupport::errorText(out));
    QCOMPARE(out->scenarios.size(), std::size_t(1));
    const ScenarioOutcome &so = out->scenarios[0];
    QVERIFY2(!so.aborted, so.abortReason.c_str());
    QCOMPARE(so.points.size(), std::size_t(2));

    // First point: one record per stream it opened, each cancelled at the max duration after it had
    // streamed (so the records did not go missing for want of traffic).
    const std::vector<RequestRecord> &first = so.points[0].records;
    QVERIFY2(first.size() == std::size_t(kFirst),
             qPrintable(u"first point: %1 records of %2 streams (the rest came back after it closed)"_s
                            .arg(first.size())
                            .arg(kFirst)));
    for (const RequestRecord &r : first) {
        QCOMPARE(r.error, ErrorClass::HarnessCancelled);
        QVERIFY(std::any_of(r.events.begin(), r.events.end(),
                            [](const StreamEvent &e) { return e.kind == StreamEvent::Kind::Content; }));
    }
    QCOMPARE(rc.live().progress().finishedRequests, std::uint64_t(kFirst + kSecond));

    // Second point: exactly its own streams (sent after every request of the first), none of the first
    // point's late records.
    const std::vector<RequestRecord> &second = so.points[1].records;
    QCOMPARE(second.size(), std::size_t(kSecond));
    std::uint64_t lastOfFirst = 0;
    for (const RequestRecord &r : first)
        lastOfFirst = std::max(lastOfFirst, r.seq);
    for (const RequestRecord &r : second) {
        QVERIFY2(
            r.seq > lastOfFirst,
            qPrintable(u"seq %1 (first point up to %2) in the second point"_s.arg(r.seq).arg(lastOfFirst)));
        QCOMPARE(r.error, ErrorClass::HarnessCancelled);
    }
}

// A worker stalled for longer than the controller waits (each cancellation 2 s, so 2 s without any record):
// the point closes without those records and says so, and when they come back later they are not counted
// into the point that runs then (the next scenario's, short streams that finish on their own).
void TestPointCancel::lateRecordsStayOutOfTheNextScenario()
{
    constexpr int kStalled = 2;
    const Scenario slow = longStreams({kStalled}, 1.5);
    Scenario quick = slow;
    quick.id = slow.id + "-quick";
    quick.phase.osl = 8;
    quick.plan.concurrencies = {2};
    quick.plan.requestCount = 6;
    quick.plan.maxDurationS = 60;
    const RunOptions opt = oneWorkerChildSim(10);
    Worker::setCancelCostForTesting(std::chrono::milliseconds(2000));
    RunController rc({slow, quick}, opt);
    Result<RunOutcome> out = rc.run();
    QVERIFY2(out.ok(), TestSupport::errorText(out));
    QCOMPARE(out->scenarios.size(), std::size_t(2));
    QCOMPARE(out->scenarios[0].points.size(), std::size_t(1));
    const PointOutcome &stalled = out->scenarios[0].points[0];
    QVERIFY2(stalled.records.size() < std::size_t(kStalled),
             qPrintable(u"%1 records: the stall did not outlast the wait"_s.arg(stalled.records.size())));
    const auto &notes = stalled.result.validity.notes;
    QVERIFY2(std::any_of(notes.begin(), notes.end(),
                         [](const std::string &n) { return n.find("missing from this point") != n.npos; }),
             "the stalled point does not say that records are missing");

    QVERIFY2(!out->scenarios[1].points.empty(), out->scenarios[1].abortReason.c_str());
    const std::vector<RequestRecord> &next = out->scenarios[1].points[0].records;
    QCOMPARE(next.size(), std::size_t(6));
    for (const RequestRecord &r : next) {
        QCOMPARE(r.scenarioIndex, 1);
        QVERIFY2(r.ok(), r.errorDetail.c_str());
    }
}

QTEST_GUILESS_MAIN(TestPointCancel)
#include "tst_pointcancel.moc"
