// Stall detection and per-replica analysis over synthetic RequestRecords (tables of event timelines).

#include "core/engine/replicaanalysis.h"
#include "core/engine/stalldetector.h"

#include <QTest>

using namespace Throughline;

namespace {

constexpr std::int64_t kMs = 1'000'000;

// A streamed request: sent at sendMs, content events at the given ms offsets (absolute run times), ends at
// endMs
// (-1 = still in flight). Each content event carries one token.
RequestRecord stream(std::uint64_t seq, std::int64_t sendMs, const QList<int> &eventsMs, std::int64_t endMs,
                     int replica = 0, bool warmup = false)
{
    RequestRecord r;
    r.seq = seq;
    r.replica = replica;
    r.warmup = warmup;
    r.tSend = sendMs * kMs;
    for (int t : eventsMs)
        r.events.push_back(StreamEvent{t * kMs, StreamEvent::Kind::Content, 1});
    r.tEnd = endMs < 0 ? kNoTime : endMs * kMs;
    r.nOut = static_cast<int>(eventsMs.size());
    r.nFirst = 1;
    return r;
}

QList<int> regular(int firstMs, int count, int gapMs)
{
    QList<int> out;
    for (int i = 0; i < count; ++i)
        out.push_back(firstMs + i * gapMs);
    return out;
}

} // namespace

Q_DECLARE_METATYPE(std::vector<RequestRecord>)

class TestStallDetector : public QObject
{
    Q_OBJECT

private slots:
    void stalls_data();
    void stalls();
    void worstListAndTimeline();
    void nonContentEventsCountAsSomething();
    void median();
    void replicas_data();
    void replicas();
};

void TestStallDetector::stalls_data()
{
    QTest::addColumn<std::vector<RequestRecord>>("records");
    QTest::addColumn<qint64>("absoluteMs");
    QTest::addColumn<double>("factor");
    QTest::addColumn<qint64>("nowMs");
    QTest::addColumn<bool>("includeTtft");
    QTest::addColumn<int>("stalled");
    QTest::addColumn<int>("stallsTotal");
    QTest::addColumn<qint64>("longestMs");
    QTest::addColumn<qint64>("thresholdMs");

    // Three healthy streams with 20 ms gaps: median 20 ms → relative threshold max(10×20 ms, 250 ms floor).
    std::vector<RequestRecord> healthy{stream(1, 0, regular(100, 50, 20), 1100),
                                       stream(2, 0, regular(120, 50, 20), 1120),
                                       stream(3, 0, regular(90, 50, 20), 1090)};
    QTest::newRow("healthy, relative")
        << healthy << qint64(0) << 10.0 << qint64(-1) << false << 0 << 0 << qint64(0) << qint64(250);

    // One stream pauses 2 s in the middle.
    std::vector<RequestRecord> oneStall = healthy;
    QList<int> ev = regular(100, 20, 20);
    ev += regular(100 + 19 * 20 + 2000, 30, 20);
    oneStall.push_back(stream(4, 0, ev, 3100));
    QTest::newRow("2 s mid-stream stall")
        << oneStall << qint64(0) << 10.0 << qint64(-1) << false << 1 << 1 << qint64(2000) << qint64(250);
    QTest::newRow("absolute 1 s") << oneStall << qint64(1000) << 0.0 << qint64(-1) << false << 1 << 1
                                  << qint64(2000) << qint64(1000);
    QTest::newRow("absolute above the stall")
        << oneStall << qint64(2500) << 0.0 << qint64(-1) << false << 0 << 0 << qint64(0) << qint64(2500);
    QTest::newRow("both: larger limit applies")
        << oneStall << qint64(100) << 10.0 << qint64(-1) << false << 1 << 1 << qint64(2000) << qint64(250);

    // Silence between the last token and the end of the transfer counts too.
    std::vector<RequestRecord> tail = healthy;
    tail.push_back(stream(5, 0, regular(100, 50, 20), 1080 + 900));
    QTest::newRow("silent tail") << tail << qint64(500) << 0.0 << qint64(-1) << false << 1 << 1 << qint64(900)
                                 << qint64(500);

    // In flight: the open gap runs to "now".
    std::vector<RequestRecord> live = healthy;
    live.push_back(stream(6, 0, regular(100, 10, 20), -1));
    QTest::newRow("in flight, now far")
        << live << qint64(500) << 0.0 << qint64(2000) << false << 1 << 1 << qint64(1720) << qint64(500);
    QTest::newRow("in flight, now near")
        << live << qint64(500) << 0.0 << qint64(400) << false << 0 << 0 << qint64(0) << qint64(500);

    // Long TTFT is not a stall unless asked for.
    std::vector<RequestRecord> slowStart = healthy;
    slowStart.push_back(stream(7, 0, regular(3000, 50, 20), 4000));
    QTest::newRow("slow first token ignored")
        << slowStart << qint64(1000) << 0.0 << qint64(-1) << false << 0 << 0 << qint64(0) << qint64(1000);
    QTest::newRow("slow first token counted")
        << slowStart << qint64(1000) << 0.0 << qint64(-1) << true << 1 << 1 << qint64(3000) << qint64(1000);

    // Two stalls in one request, a second stalled request.
    std::vector<RequestRecord> multi = healthy;
    multi.push_back(stream(8, 0, QList<int>{100, 120, 900, 920, 2000, 2020}, 2030));
    multi.push_back(stream(9, 0, QList<int>{100, 700, 720}, 730));
    QTest::newRow("several") << multi << qint64(500) << 0.0 << qint64(-1) << false << 2 << 3 << qint64(1080)
                             << qint64(500);

    // No gaps at all (single-event streams): no relative threshold can be formed.
    std::vector<RequestRecord> single{stream(10, 0, QList<int>{100}, 5000)};
    QTest::newRow("no median") << single << qint64(0) << 10.0 << qint64(-1) << false << 0 << 0 << qint64(0)
                               << qint64(-1);
}

void TestStallDetector::stalls()
{
    QFETCH(std::vector<RequestRecord>, records);
    QFETCH(qint64, absoluteMs);
    QFETCH(double, factor);
    QFETCH(qint64, nowMs);
    QFETCH(bool, includeTtft);
    QFETCH(int, stalled);
    QFETCH(int, stallsTotal);
    QFETCH(qint64, longestMs);
    QFETCH(qint64, thresholdMs);
    StallOptions opt;
    opt.absoluteThresholdNs = absoluteMs * kMs;
    opt.medianGapFactor = factor;
    opt.nowNs = nowMs < 0 ? kNoTime : nowMs * kMs;
    opt.includeTimeToFirstToken = includeTtft;
    const StallReport r = StallDetector::analyse(records, opt);
    QCOMPARE(r.requestsChecked, static_cast<int>(records.size()));
    QCOMPARE(r.requestsStalled, stalled);
    QCOMPARE(r.stallsTotal, stallsTotal);
    QCOMPARE(r.longestGapNs, longestMs * kMs);
    QCOMPARE(r.thresholdNs, thresholdMs < 0 ? kNoTime : thresholdMs * kMs);
    QCOMPARE(static_cast<int>(r.worst.size()), stalled);
}

void TestStallDetector::worstListAndTimeline()
{
    std::vector<RequestRecord> recs;
    for (int i = 0; i < 20; ++i) // stall of (i+1)×100 ms after the 5th token of request i
        recs.push_back(stream(std::uint64_t(i), 0,
                              QList<int>{10, 20, 30, 40, 50, 50 + (i + 1) * 100, 60 + (i + 1) * 100},
                              70 + (i + 1) * 100, i % 2, i == 19));
    StallOptions opt;
    opt.absoluteThresholdNs = 450 * kMs;
    opt.medianGapFactor = 0;
    opt.worstCount = 3;
    StallReport r = StallDetector::analyse(recs, opt);
    QCOMPARE(r.requestsStalled, 16); // gaps 500…2000 ms
    QCOMPARE(r.worst.size(), std::size_t(3));
    QCOMPARE(r.worst[0].seq, std::uint64_t(19));
    QCOMPARE(r.worst[1].seq, std::uint64_t(18));
    QCOMPARE(r.worst[0].longestGapNs, 2000 * kMs);
    QCOMPARE(r.worst[0].stalls.size(), std::size_t(1));
    QCOMPARE(r.worst[0].stalls[0].startNs, 50 * kMs);
    QCOMPARE(r.worst[0].stalls[0].endNs, 2050 * kMs);
    QCOMPARE(r.worst[0].eventTimesNs.size(), std::size_t(7));
    QCOMPARE(r.worst[0].tFirstContent, 10 * kMs);
    QVERIFY(r.worst[0].warmup);
    QCOMPARE(r.worst[1].replica, 0);
    opt.includeWarmup = false;
    r = StallDetector::analyse(recs, opt);
    QCOMPARE(r.requestsChecked, 19);
    QCOMPARE(r.worst[0].seq, std::uint64_t(18));
}

void TestStallDetector::nonContentEventsCountAsSomething()
{
    // A usage chunk in the middle of a long pause means bytes arrived: two shorter gaps, not one stall.
    RequestRecord r = stream(1, 0, QList<int>{100, 120, 1500}, 1510);
    r.events.insert(r.events.begin() + 2, StreamEvent{800 * kMs, StreamEvent::Kind::Usage, -1});
    StallOptions opt;
    opt.absoluteThresholdNs = 1000 * kMs;
    opt.medianGapFactor = 0;
    QCOMPARE(StallDetector::analyse({r}, opt).requestsStalled, 0);
    r.events.erase(r.events.begin() + 2);
    QCOMPARE(StallDetector::analyse({r}, opt).requestsStalled, 1);
}

void TestStallDetector::median()
{
    QCOMPARE(StallDetector::medianContentGapNs({stream(1, 0, QList<int>{0, 10, 30, 60}, 70)}),
             20 * kMs); // 10,20,30
    QCOMPARE(StallDetector::medianContentGapNs({stream(1, 0, QList<int>{0, 10, 30, 60, 100}, 100)}),
             25 * kMs);
    QCOMPARE(StallDetector::medianContentGapNs({}), kNoTime);
    QCOMPARE(StallDetector::medianContentGapNs({stream(1, 0, QList<int>{0, 10}, 10, 0, true)}, false),
             kNoTime);
}

void TestStallDetector::replicas_data()
{
    QTest::addColumn<std::vector<RequestRecord>>("records");
    QTest::addColumn<QList<int>>("slowReplicas");

    // Replica r streams 100 tokens with gap[r] ms between tokens; 10 requests each, round-robin.
    auto build = [](const QList<int> &gapMs, int perReplica) {
        std::vector<RequestRecord> out;
        std::uint64_t seq = 0;
        for (int r = 0; r < gapMs.size(); ++r)
            for (int i = 0; i < perReplica; ++i) {
                const int send = i * 50;
                out.push_back(stream(seq++, send, regular(send + 100, 100, gapMs[r]),
                                     send + 100 + 99 * gapMs[r] + 5, r));
            }
        return out;
    };
    QTest::newRow("three equal") << build({10, 10, 10}, 10) << QList<int>{};
    QTest::newRow("one 3x slower of three") << build({10, 30, 10}, 10) << QList<int>{1};
    QTest::newRow("two replicas, one 2x slower") << build({20, 10}, 10) << QList<int>{0};
    QTest::newRow("small difference") << build({10, 12, 11, 10}, 10) << QList<int>{};
    QTest::newRow("single replica") << build({50}, 10) << QList<int>{};
    QTest::newRow("too few requests to judge") << build({10, 40}, 3) << QList<int>{};
}

void TestStallDetector::replicas()
{
    QFETCH(std::vector<RequestRecord>, records);
    QFETCH(QList<int>, slowReplicas);
    const ReplicaReport rep = ReplicaAnalysis::analyse(records);
    QList<int> slow;
    for (const ReplicaStats &s : rep.replicas) {
        QVERIFY(s.ok == s.requests);
        QVERIFY(s.outputTps > 0);
        QCOMPARE(s.outputTokens, static_cast<long long>(s.ok) * 100);
        if (s.muchSlower) {
            slow.push_back(s.replica);
            QVERIFY(!s.reason.empty());
        }
    }
    QCOMPARE(slow, slowReplicas);
    QCOMPARE(rep.anyMuchSlower, !slowReplicas.isEmpty());
    // TPOT p50 of a replica equals its token gap (first token excluded).
    for (const ReplicaStats &s : rep.replicas) {
        const RequestRecord *any = nullptr;
        for (const RequestRecord &r : records)
            if (r.replica == s.replica)
                any = &r;
        const double gapMs = double(any->events[1].tNs - any->events[0].tNs) / 1e6;
        QVERIFY(std::abs(s.tpotP50Ms - gapMs) < 1e-9);
        QCOMPARE(s.ttftP50Ms, 100.0);
    }
}

QTEST_GUILESS_MAIN(TestStallDetector)
#include "tst_stalldetector.moc"
