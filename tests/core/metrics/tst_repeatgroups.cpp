// Repeats of a load (plan.repeats, docs/metrics.md "Repeats"): grouping, the across-repeat interval, the
// verdict on the wider of the two intervals, results.json (written, recomputed on read, never trusted) and
// the comparison of a repeated load as one.
#include "core/metrics/repeatgroups.h"
#include "core/results/resultsjson.h"
#include "core/results/runcomparison.h"
#include "core/stats/repeatinterval.h"
#include "core/targets/verdict.h"

#include <QTest>

#include <nlohmann/json.hpp>

using namespace Throughline;

namespace {

// A point at concurrency c, repeat r, with output tok/s `tps` and a within-run interval ± halfWidth.
PointResult point(int c, int repeat, double tps, double halfWidth)
{
    PointResult p;
    p.load = {PointLoad::Mode::Concurrency, c, 0, repeat};
    p.nSent = p.nOk = 200;
    p.windowS = 10;
    p.metrics.outputTps = tps;
    p.metrics.outputTpsPerGpu = tps;
    p.intervals.level = 0.95;
    Interval iv;
    iv.estimate = tps;
    iv.lower = tps - halfWidth;
    iv.upper = tps + halfWidth;
    iv.method = IntervalMethod::BlockBootstrap;
    p.intervals.set("output_tps", "value", iv);
    p.intervals.set("output_tps_per_gpu", "value", iv);
    return p;
}

TargetRow atLeast(double target)
{
    TargetRow row;
    row.metric = "output_tps_per_gpu";
    row.cmp = Comparator::GreaterEqual;
    row.value = target;
    row.kind = TargetKind::Slo;
    return row;
}

} // namespace

class TestRepeatGroups : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void groupsByLoad();
    void acrossIsTheStudentTOfTheRepeats();
    void verdictUsesTheWider();
    void resultsJsonRecomputesOnRead();
    void comparisonTakesALoadOnce();
};

void TestRepeatGroups::groupsByLoad()
{
    const std::vector<PointResult> pts{point(4, 1, 100, 1), point(4, 2, 101, 1), point(16, 1, 300, 1),
                                       point(16, 2, 305, 1), point(32, 0, 400, 1)};
    const auto groups = repeatGroups(pts);
    QCOMPARE(groups.size(), std::size_t(2));
    QCOMPARE(groups[0], (std::vector<std::size_t>{0, 1}));
    QCOMPARE(groups[1], (std::vector<std::size_t>{2, 3}));
}

void TestRepeatGroups::acrossIsTheStudentTOfTheRepeats()
{
    std::vector<PointResult> pts{point(4, 1, 100, 1), point(4, 2, 104, 1), point(4, 3, 99, 1),
                                 point(16, 0, 300, 1), point(32, 1, 400, 1)};
    pts[2].intervals.byMetric.erase("output_tps_per_gpu"); // that stat still has values on every repeat
    pts[1].metrics.outputTps = std::nan("");               // … this one does not: no across interval
    fillAcrossRepeatIntervals(pts);
    const std::vector<double> values{100, 104, 99};
    const Interval expected = repeatMeanInterval(values, 0.95);
    for (int i = 0; i < 3; ++i) {
        const auto iv = pts[i].acrossRepeatInterval("output_tps_per_gpu", "value");
        QVERIFY(iv);
        QCOMPARE(iv->estimate, 101.0);
        QCOMPARE(iv->lower, expected.lower);
        QCOMPARE(iv->upper, expected.upper);
        QCOMPARE(iv->effectiveN, 3.0);
        QCOMPARE(iv->method, IntervalMethod::StudentT);
        QVERIFY(!pts[i].acrossRepeatInterval("output_tps", "value"));
    }
    QVERIFY(pts[3].acrossRepeats.empty()); // run once
    QVERIFY(pts[4].acrossRepeats.empty()); // a single repeat has no spread
    fillAcrossRepeatIntervals(pts);        // idempotent
    QCOMPARE(pts[0].acrossRepeatInterval("output_tps_per_gpu", "value")->lower, expected.lower);
}

// Repeats that scatter beyond each one's own interval: the across-repeat interval is wider and decides —
// the check's value is the repeats' mean and an inconclusive check counts repeats. Repeats that agree:
// the repeat's own interval is wider and decides.
void TestRepeatGroups::verdictUsesTheWider()
{
    std::vector<PointResult> spread{point(16, 1, 1000, 5), point(16, 2, 1100, 5), point(16, 3, 1040, 5)};
    fillAcrossRepeatIntervals(spread);
    VerdictCheck c = judgeRow(atLeast(1020), spread, 1);
    QCOMPARE(c.intervalSource, VerdictCheck::IntervalSource::AcrossRepeats);
    QVERIFY(c.hadAcrossRepeats);
    QCOMPARE(c.outcome, VerdictCheck::Outcome::Inconclusive); // the repeat alone (1100 ± 5) would pass
    QCOMPARE(c.value, 1046.6666666666667);
    QVERIFY(c.requestsNeeded > 3);
    Verdict v;
    v.checks = {c};
    const nlohmann::json j = v.toJson()["checks"][0];
    QCOMPARE(j["interval_source"].get<std::string>(), std::string("across_repeats"));
    QVERIFY(j.contains("repeats_needed") && !j.contains("requests_needed"));
    const auto back = Verdict::fromJson(v.toJson());
    QVERIFY(back.ok());
    QCOMPARE(back->checks[0].intervalSource, VerdictCheck::IntervalSource::AcrossRepeats);
    QCOMPARE(back->checks[0].requestsNeeded, c.requestsNeeded);

    std::vector<PointResult> agree{point(16, 1, 1000, 30), point(16, 2, 1001, 30), point(16, 3, 1000.5, 30)};
    fillAcrossRepeatIntervals(agree);
    c = judgeRow(atLeast(950), agree, 1);
    QCOMPARE(c.intervalSource, VerdictCheck::IntervalSource::WithinRun);
    QVERIFY(c.hadAcrossRepeats);
    QCOMPARE(c.outcome, VerdictCheck::Outcome::Pass);
    QCOMPARE(c.value, 1001.0);
    QCOMPARE(c.lower, 971.0);

    const std::vector<PointResult> once{point(16, 0, 1000, 30)};
    c = judgeRow(atLeast(950), once, 0);
    QVERIFY(!c.hadAcrossRepeats);
    v.checks = {c};
    QVERIFY(!v.toJson()["checks"][0].contains("interval_source"));
}

// Written with load.repeat and intervals_across; read back, the across-repeat intervals come from the
// repeats' values, not from the file (a tampered figure is ignored).
void TestRepeatGroups::resultsJsonRecomputesOnRead()
{
    RunResults run;
    run.runId = "r";
    ScenarioResult s;
    s.id = "m/b/g×1/Chat";
    s.points = {point(4, 1, 100, 1), point(4, 2, 104, 1)};
    fillAcrossRepeatIntervals(s.points);
    run.scenarios.push_back(s);
    nlohmann::json j = run.toJson();
    QCOMPARE(j["schema"].get<std::string>(), std::string(RunResults::kSchema));
    nlohmann::json &p1 = j["scenarios"][0]["points"][1];
    QCOMPARE(p1["load"]["repeat"].get<int>(), 2);
    nlohmann::json &across = p1["intervals_across"]["metrics"]["output_tps"]["value"];
    QCOMPARE(across["repeats"].get<int>(), 2);
    QCOMPARE(across["estimate"].get<double>(), 102.0);
    across["lower"] = 0.0; // tampered
    const auto back = RunResults::fromJson(j);
    QVERIFY2(back.ok(), back.ok() ? "" : back.error().message.c_str());
    const PointResult &b1 = back->scenarios[0].points[1];
    QCOMPARE(b1.load.repeat, 2);
    QCOMPARE(b1.acrossRepeatInterval("output_tps", "value")->lower,
             s.points[1].acrossRepeatInterval("output_tps", "value")->lower);
    QVERIFY(back->toJson() == run.toJson());

    nlohmann::json bad = run.toJson();
    bad["scenarios"][0]["points"][0]["load"]["repeat"] = 0;
    const auto rejected = RunResults::fromJson(bad);
    QVERIFY(!rejected.ok());
    QVERIFY(rejected.error().message.find("load.repeat") != std::string::npos);
}

// A repeated load is one comparison, on the repeats' means with the across-repeat intervals.
void TestRepeatGroups::comparisonTakesALoadOnce()
{
    auto runOf = [](std::vector<PointResult> pts) {
        RunResults r;
        ScenarioResult s;
        s.id = "m/b/g×1/Chat";
        s.points = std::move(pts);
        fillAcrossRepeatIntervals(s.points);
        r.scenarios.push_back(std::move(s));
        return r;
    };
    const RunResults base = runOf({point(4, 1, 100, 0.5), point(4, 2, 101, 0.5), point(4, 3, 100.5, 0.5)});
    const RunResults cand = runOf({point(4, 1, 90, 0.5), point(4, 2, 91, 0.5), point(4, 3, 90.5, 0.5)});
    const MetricStat metrics[] = {{"output_tps", "value"}};
    const NoiseAwareComparison c = compareRunResults(base, cand, metrics, 0.95, 0.0);
    QCOMPARE(c.sharedPoints, 1);
    QCOMPARE(c.unmatchedPoints, 0);
    QCOMPARE(c.results.size(), std::size_t(1));
    QCOMPARE(c.results[0].outcome, ComparisonOutcome::Regressed);
    QCOMPARE(c.inputs[0].baseline.estimate, 100.5);
    QCOMPARE(c.inputs[0].candidate.estimate, 90.5);
    QCOMPARE(c.where[0].load, std::string("C=4"));
}

QTEST_GUILESS_MAIN(TestRepeatGroups)
#include "tst_repeatgroups.moc"
