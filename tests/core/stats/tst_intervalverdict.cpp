// Pass / fail / inconclusive on intervals, with number targets and with the baseline rule against a
// baseline's own interval.
#include "core/stats/intervalverdict.h"

#include <QTest>

#include <cmath>

using namespace Throughline;

namespace {
Interval iv(double est, double lo, double hi)
{
    return Interval{est, lo, hi, 0.95, IntervalMethod::BlockBootstrap};
}
} // namespace

class TestIntervalVerdict : public QObject
{
    Q_OBJECT
private slots:
    void atLeast()
    {
        const Interval v = iv(11, 10, 12);
        QCOMPARE(judgeInterval(v, TargetDirection::AtLeast, 9.0), IntervalVerdict::Pass);
        QCOMPARE(judgeInterval(v, TargetDirection::AtLeast, 10.0), IntervalVerdict::Pass); // bound on target
        QCOMPARE(judgeInterval(v, TargetDirection::AtLeast, 11.0), IntervalVerdict::Inconclusive);
        QCOMPARE(judgeInterval(v, TargetDirection::AtLeast, 12.5), IntervalVerdict::Fail);
    }

    void atMost()
    {
        const Interval v = iv(11, 10, 12);
        QCOMPARE(judgeInterval(v, TargetDirection::AtMost, 12.0), IntervalVerdict::Pass);
        QCOMPARE(judgeInterval(v, TargetDirection::AtMost, 11.5), IntervalVerdict::Inconclusive);
        QCOMPARE(judgeInterval(v, TargetDirection::AtMost, 9.5), IntervalVerdict::Fail);
    }

    void openSides()
    {
        // p99 of too small a sample: no upper bound. It can fail a "<=" limit (its lower bound is above)
        // but never pass one.
        const Interval v = iv(50, 40, INFINITY);
        QCOMPARE(judgeInterval(v, TargetDirection::AtMost, 1000.0), IntervalVerdict::Inconclusive);
        QCOMPARE(judgeInterval(v, TargetDirection::AtMost, 30.0), IntervalVerdict::Fail);
        QCOMPARE(judgeInterval(v, TargetDirection::AtLeast, 30.0), IntervalVerdict::Pass);
        Interval none;
        QCOMPARE(judgeInterval(none, TargetDirection::AtLeast, 1.0), IntervalVerdict::Inconclusive);
    }

    void baselineRuleWithTheBaselinesInterval()
    {
        // Exemplar: ≥ 95 % of a baseline measured as 100 [100 … 110] → threshold [95, 104.5].
        const Interval base = iv(105, 100, 110);
        const Threshold t = baselineThreshold(base, TargetDirection::AtLeast);
        QCOMPARE(t.lower, 95.0);
        QCOMPARE(t.upper, 104.5);
        QCOMPARE(judgeInterval(iv(106, 105, 107), TargetDirection::AtLeast, t), IntervalVerdict::Pass);
        QCOMPARE(judgeInterval(iv(100, 96, 104), TargetDirection::AtLeast, t), IntervalVerdict::Inconclusive);
        QCOMPARE(judgeInterval(iv(92, 90, 94), TargetDirection::AtLeast, t), IntervalVerdict::Fail);
        // The same candidate against the baseline's point value alone would pass (96 ≥ 0.95·100 = 95):
        // the baseline's noise is what makes it inconclusive.
        Interval point;
        point.estimate = 100;
        QCOMPARE(judgeInterval(iv(100, 96, 104), TargetDirection::AtLeast,
                               baselineThreshold(point, TargetDirection::AtLeast)),
                 IntervalVerdict::Pass);
        // Latency baselines: ≤ baseline / 0.95.
        const Threshold tl = baselineThreshold(base, TargetDirection::AtMost);
        QVERIFY(std::fabs(tl.lower - 100 / 0.95) < 1e-12);
        QVERIFY(std::fabs(tl.upper - 110 / 0.95) < 1e-12);
    }

    void names()
    {
        QCOMPARE(intervalVerdictName(IntervalVerdict::Inconclusive), std::string_view("inconclusive"));
    }
};

QTEST_GUILESS_MAIN(TestIntervalVerdict)
#include "tst_intervalverdict.moc"
