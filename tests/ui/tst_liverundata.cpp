// LiveRunData: bucketing, percentiles, error counts and the live curve estimate (pure computation).
#include <QTest>

#include "ui/run/liverundata.h"

using namespace Throughline;

class TestLiveRunData : public QObject
{
    Q_OBJECT
private slots:
    void bucketsCloseOnlyWhenTwoBehind()
    {
        LiveRunData d(1.0);
        std::vector<LiveSample> s;
        for (int i = 0; i < 10; ++i) {
            LiveSample x;
            x.tEndS = 0.05 + i * 0.1; // bucket 0
            x.ttftMs = 10 + i;        // 10 … 19
            x.tpotMs = 5;
            x.nOut = 100;
            s.push_back(x);
        }
        QVERIFY(d.ingest(s).empty());
        LiveSample late;
        late.tEndS = 1.5; // bucket 1: bucket 0 still open (late samples allowed)
        QVERIFY(d.ingest({late}).empty());
        late.tEndS = 2.5; // bucket 2: bucket 0 closes
        const auto closed = d.ingest({late});
        QCOMPARE(closed.size(), size_t(1));
        QCOMPARE(closed[0].tS, 0.5);
        QCOMPARE(closed[0].samples, 10);
        QCOMPARE(closed[0].outputTps, 1000.0);
        QCOMPARE(closed[0].ttftP50Ms, 14.5);               // linear interpolation
        QVERIFY(qFuzzyCompare(closed[0].ttftP90Ms, 18.1)); // 10 + 0.9 × 9
        QCOMPARE(d.flush().size(), size_t(2));
    }

    void errorsAndCurveEstimate()
    {
        LiveRunData d(1.0);
        std::vector<LiveSample> s;
        for (int i = 0; i < 120; ++i) {
            LiveSample x;
            x.scenarioIndex = 0;
            x.pointIndex = 1;
            x.tEndS = 1 + i * 0.05; // 1 … 6.95
            x.tpotMs = 20;
            x.nOut = 50;
            s.push_back(x);
        }
        LiveSample warm = s.front();
        warm.warmup = true;
        warm.nOut = 100000; // warm-up never counts in the estimate
        s.push_back(warm);
        LiveSample bad;
        bad.ok = false;
        bad.error = ErrorClass::HttpStatus;
        s.push_back(bad);
        d.ingest(s);
        QCOMPARE(d.failedCount(), 1);
        QCOMPARE(d.errorsByClass().size(), size_t(1));
        const auto est = d.estimateCurvePoint(0, 1, 2);
        QVERIFY(est.has_value());
        QVERIFY(qFuzzyCompare(est->first, 120 * 50 / 5.95 / 2));
        QCOMPARE(est->second, 50.0); // 1000 / 20 ms
        QVERIFY(!d.estimateCurvePoint(0, 0, 2).has_value());
    }

    void simulatorTimeScaleIsUndone()
    {
        // Scenario 1 ran on a simulator at 10× speed: its latencies are 10× longer and its token
        // rates 10× lower in the modelled server's time.
        LiveRunData d(1.0);
        std::vector<LiveSample> s;
        for (int i = 0; i < 100; ++i) {
            LiveSample x;
            x.scenarioIndex = 1;
            x.tEndS = 0.5 + i * 0.004; // all in bucket 0
            x.ttftMs = 3;
            x.tpotMs = 2;
            x.nOut = 10;
            s.push_back(x);
        }
        d.ingest(s, {1.0, 10.0});
        const auto b = d.flush();
        QCOMPARE(b.size(), size_t(1));
        QCOMPARE(b[0].ttftP50Ms, 30.0);
        QCOMPARE(b[0].tpotP90Ms, 20.0);
        QVERIFY(qFuzzyCompare(b[0].outputTps, 100.0)); // 100 × 10 tokens ÷ 10 in one second
        const auto est = d.estimateCurvePoint(1, 0, 1);
        QVERIFY(est.has_value());
        QCOMPARE(est->second, 50.0); // 1000 / 20 ms
    }

    void finishedPointKeepsItsEstimateNotItsSamples()
    {
        // A finished point's TPOTs shrink to their p90 (issue 23: a long run holds the running point's only);
        // the estimate is the same before and after, and later samples still count in its totals.
        LiveRunData d;
        std::vector<LiveSample> s(200);
        for (size_t i = 0; i < s.size(); ++i) {
            s[i].tEndS = 1 + double(i) / 100;
            s[i].tpotMs = 5 + double(i % 10);
            s[i].nOut = 8;
        }
        d.ingest(s);
        const auto before = d.estimateCurvePoint(0, 0, 1);
        QVERIFY(before.has_value());
        d.finishPoint(0, 0);
        const LiveRunData::PointAccum *p = d.point(0, 0);
        QVERIFY(p && p->frozen);
        QCOMPARE(p->tpotMs.capacity(), size_t(0));
        QCOMPARE(p->tpotCount, size_t(200));
        const auto after = d.estimateCurvePoint(0, 0, 1);
        QVERIFY(after.has_value());
        QCOMPARE(after->first, before->first);
        QCOMPARE(after->second, before->second);
        d.ingest({s.front()}); // a late sample of the finished point
        QCOMPARE(d.point(0, 0)->ok, 201);
        QCOMPARE(d.point(0, 0)->tpotCount, size_t(200));
        QVERIFY(d.point(0, 0)->tpotMs.empty());
    }

    void estimateNeedsHundredSamples()
    {
        LiveRunData d;
        std::vector<LiveSample> s(99);
        for (size_t i = 0; i < s.size(); ++i) {
            s[i].tEndS = double(i);
            s[i].tpotMs = 10;
        }
        d.ingest(s);
        QVERIFY(!d.estimateCurvePoint(0, 0, 1).has_value());
    }
};

QTEST_GUILESS_MAIN(TestLiveRunData)
#include "tst_liverundata.moc"
