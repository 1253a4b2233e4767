// Rolling live summary: window pruning, percentiles over the window, tokens/s by event time.
#include "tests/common/livesummary.h"
#include "recordbuilder.h"

#include <QTest>

#include <cmath>

using namespace Throughline;
using Throughline::Test::ms;
using Throughline::Test::RecordBuilder;

class TestLiveSummary : public QObject
{
    Q_OBJECT
private slots:
    void rollingWindow();
    void emptySnapshot();
};

void TestLiveSummary::rollingWindow()
{
    LiveSummary live(std::chrono::seconds(10), std::chrono::seconds(1), 600);
    // A: sent 4.0 s, tokens at 4.1/4.2/4.3 s (TTFT 100 ms, TPOT 100 ms), ends 5 s.
    live.add(RecordBuilder(1).send(4000).content({4100, 4200, 4300}).end(5000).usage(3));
    // B: sent 11.3 s, tokens at 11.5/11.6 s, usage 4 → 2 tokens per event; TTFT 200 ms, TPOT 100/3 ms.
    live.add(RecordBuilder(2).send(11300).content({11500, 11600}).end(12000).usage(4));

    LiveSnapshot s = live.snapshot(ms(12000)); // window [2 s, 12 s]
    QCOMPARE(s.completed, std::size_t(2));
    QCOMPARE(s.ttftN, std::size_t(2));
    QCOMPARE(s.ttftP50Ms, 150.0);
    QCOMPARE(s.ttftP90Ms, 190.0);                 // h = 0.9 between 100 and 200
    QVERIFY(std::abs(s.outputTps - 0.7) < 1e-12); // 3 + 4 tokens over 10 s
    QCOMPARE(s.requestRate, 0.2);
    QCOMPARE(s.tokensPerSecond.size(), std::size_t(8)); // bins 4 … 11
    QCOMPARE(s.tokensPerSecond.front(), std::make_pair(4.0, 3.0));
    QCOMPARE(s.tokensPerSecond.back(), std::make_pair(11.0, 4.0));

    live.add(RecordBuilder(3).send(14000).end(15000).fail(ErrorClass::Connect));
    s = live.snapshot(ms(16000)); // window [6 s, 16 s]: A dropped
    QCOMPARE(s.completed, std::size_t(1));
    QCOMPARE(s.failed, std::size_t(1));
    QCOMPARE(s.totalCompleted, std::size_t(2));
    QCOMPARE(s.ttftP50Ms, 200.0);
    QVERIFY(std::abs(s.tpotP50Ms - 100.0 / 3) < 1e-9);
    QVERIFY(std::abs(s.outputTps - 0.4) < 1e-12);
}

void TestLiveSummary::emptySnapshot()
{
    LiveSummary live;
    const LiveSnapshot s = live.snapshot(ms(1000));
    QCOMPARE(s.completed, std::size_t(0));
    QVERIFY(std::isnan(s.ttftP90Ms));
    QCOMPARE(s.outputTps, 0.0);
    QVERIFY(s.tokensPerSecond.empty());
}

QTEST_GUILESS_MAIN(TestLiveSummary)
#include "tst_livesummary.moc"
