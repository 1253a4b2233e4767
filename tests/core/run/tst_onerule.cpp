// One definition of each run rule, the same answer from every caller (issue 18):
// - SLO percentile: search mode's bisection step (searchPointMeetsSlo, what RunController calls) and the
//   verdict's slo checks read the same stat (sloStatKey: 99.9 → p999, 75 → p75);
// - live TPOT: the live view's sample (LiveSnapshot::sampleOf) and the point's metrics
//   (computeRequestMetrics) resolve N_out / N_first and divide alike;
// - point load: one label for a typed load (pointLoadLabel), no label parsed back;
// - campaign hash: over the canonical text, so a file and the designer's document of the same campaign (any
//   formatting) hash alike, and a changed campaign does not.
//   A real search run (RunController against the in-process simulator) bisects exactly as the verdict's
//   check of each point would have it, for 90, 99.9 and 75 (searchDecidesAsTheVerdict).
// Curve point lists, the open-loop duration and an open point's planned requests are in tst_loadschedule
// (plannedPointCount, plannedRequests, the CLI's run plan and the Run page use curveConcurrencies /
// openLoopMeasuredS / openLoopBudget).

#include "core/campaign/campaignhash.h"
#include "core/campaign/campaignvalidator.h"
#include "core/metrics/requestmetrics.h"
#include "common/demoscenario.h"
#include "core/engine/loadschedule.h"
#include "core/run/livesnapshot.h"
#include "core/run/runcontroller.h"
#include "core/sim/simlauncher.h"
#include "core/targets/verdict.h"
#include "recordbuilder.h"

#include <QFile>
#include <QTest>

#include <nlohmann/json.hpp>

#include <cmath>

using namespace Throughline;
using Throughline::Test::RecordBuilder;

Q_DECLARE_METATYPE(Throughline::RequestRecord)

namespace {

// A valid point whose TTFT percentiles are p50 10, p90 20, p95 30, p99 40, p99.9 50 ms (n large enough to
// report p99.9).
PointResult pointWithTtfts()
{
    PointResult p;
    p.nSent = p.nOk = 20000;
    p.validity.valid = true;
    p.metrics.ttftMs.p = {10, 20, 30, 40, 50};
    p.metrics.ttftMs.n = 20000;
    p.metrics.ttftMs.mean = 15;
    return p;
}

// A search scenario on the demo's chat phase (short answers) against the in-process simulator: bisection over
// C in [4, 8], at most two points, a TTFT limit no point comes near, judged at `percentile`.
Scenario searchScenario(const Scenario &demo, double percentile, int requests)
{
    Scenario s = demo;
    s.endpoint.sim.timeScale = 5; // light client load: the points must be valid
    s.endpoint.sim.jitter = 0;
    s.phase.osl = 16;
    s.plan.mode = LoadPlan::Mode::Search;
    s.plan.cMin = 4;
    s.plan.cMax = 8;
    s.plan.searchMaxPoints = 2;
    s.plan.requestCount = requests;
    s.plan.warmupRequests = 0;
    s.plan.minWindowS = 0.1;
    s.plan.cooldownS = 0;
    s.slo = Slo{};
    s.slo.percentile = percentile;
    s.slo.ttftMs = 1e6;
    return s;
}

// The verdict's answer for one point on its own: its slo check passes.
// The search bisects on the points' values (it needs a yes or no at each step); the verdict adds their
// intervals. So the search's answer is the verdict on the values alone (intervals set aside), and a point it
// accepts is never judged failing once its intervals count (pass or inconclusive).
PointResult withoutIntervals(PointResult p)
{
    p.intervals = {};
    return p;
}

bool verdictPasses(const Scenario &sc, const PointResult &p)
{
    const std::vector<PointResult> one{withoutIntervals(p)};
    const bool pass = judgeScenario(sc, one, {}).status == Verdict::Status::Pass;
    const std::vector<PointResult> withIntervals{p};
    if (pass && judgeScenario(sc, withIntervals, {}).status == Verdict::Status::Fail)
        qFatal("a point that meets the SLO on its values failed on its intervals");
    return pass;
}

} // namespace

class TestOneRule : public QObject
{
    Q_OBJECT
private slots:
    void sloPercentile_data()
    {
        QTest::addColumn<double>("percentile");
        QTest::addColumn<double>("ttftLimitMs");
        QTest::addColumn<QString>("stat");
        QTest::addColumn<bool>("meets");
        QTest::newRow("p50 met") << 50.0 << 10.0 << "p50" << true;
        QTest::newRow("p90 met") << 90.0 << 25.0 << "p90" << true;
        QTest::newRow("p95 missed") << 95.0 << 29.0 << "p95" << false;
        QTest::newRow("p99 met") << 99.0 << 45.0 << "p99" << true;
        // Search mode used to read p99 for 99.9 and so called this point good; the verdict reads p999.
        QTest::newRow("p99.9 missed at 45 ms") << 99.9 << 45.0 << "p999" << false;
        QTest::newRow("p99.9 met at 50 ms") << 99.9 << 50.0 << "p999" << true;
        // A percentile the point does not carry never holds (search used to fall back to p50).
        QTest::newRow("p75 not carried") << 75.0 << 60.0 << "p75" << false;
    }

    void sloPercentile()
    {
        QFETCH(double, percentile);
        QFETCH(double, ttftLimitMs);
        QFETCH(QString, stat);
        QFETCH(bool, meets);
        Slo slo;
        slo.percentile = percentile;
        slo.ttftMs = ttftLimitMs;
        QCOMPARE(QString::fromStdString(sloStatKey(percentile)), stat);
        const PointResult p = pointWithTtfts();
        // Search mode's step.
        QCOMPARE(searchPointMeetsSlo(p, slo), meets);
        // Operating-point selection.
        QCOMPARE(pointMeetsSlo(p, slo), meets);
        // The verdict's slo check of the same scenario.
        Scenario sc;
        sc.slo = slo;
        const std::vector<PointResult> points{p};
        const Verdict v = judgeScenario(sc, points, {});
        QCOMPARE(v.checks.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(v.checks[0].stat), stat);
        QCOMPARE(v.checks[0].outcome == VerdictCheck::Outcome::Pass, meets);
        QCOMPARE(v.status == Verdict::Status::Pass, meets);
    }

    void searchNeedsAValidPointWithAnswers()
    {
        Slo slo;
        slo.ttftMs = 100;
        PointResult p = pointWithTtfts();
        p.validity.valid = false;
        QVERIFY(!searchPointMeetsSlo(p, slo));
        p = pointWithTtfts();
        p.nOk = 0;
        QVERIFY(!searchPointMeetsSlo(p, slo));
    }

    // The caller that matters: RunController's search mode. Each point it measured is judged alone by the
    // verdict, and a bisection fed those answers must try the same points and find the same best. 90 meets
    // everywhere (best = C_max); 99.9 at 1,050 requests reports p99 (far under the limit, where the old p99
    // mapping called the point good) but not p999 (10,000 needed), so nothing meets; 75 is not carried (the
    // old mapping read p50), so nothing meets.
    void searchDecidesAsTheVerdict()
    {
        auto demo = TestSupport::firstDemoScenario();
        QVERIFY2(demo.ok(), TestSupport::errorText(demo));
        const std::vector<Scenario> scenarios{searchScenario(*demo, 90, 210),
                                              searchScenario(*demo, 99.9, 1050),
                                              searchScenario(*demo, 75, 210)};
        RunOptions opt;
        opt.workers = 2;
        opt.simLauncher = SimLauncher(&launchSimulator);
        opt.keepRecords = false;
        RunController rc(scenarios, opt);
        auto out = rc.run();
        QVERIFY2(out.ok(), out.ok() ? "" : out.error().message.c_str());
        QCOMPARE(out->scenarios.size(), scenarios.size());
        for (const ScenarioOutcome &so : out->scenarios) {
            const Scenario &sc = so.scenario;
            QVERIFY2(!so.aborted, so.abortReason.c_str());
            QVERIFY(!so.points.empty());
            SearchBisection replay(sc.plan.cMin, sc.plan.cMax, sc.plan.searchMaxPoints);
            std::vector<PointResult> results;
            for (const PointOutcome &po : so.points) {
                const auto next = replay.next();
                QVERIFY(next);
                QCOMPARE(po.result.load.concurrency, *next);
                QVERIFY2(po.result.validity.valid,
                         qPrintable(QStringLiteral("C=%1: %2")
                                        .arg(*next)
                                        .arg(QString::fromStdString(
                                            nlohmann::json(po.result.validity.flags).dump()))));
                QCOMPARE(searchPointMeetsSlo(po.result, sc.slo), verdictPasses(sc, po.result));
                replay.report(*next, verdictPasses(sc, po.result));
                results.push_back(po.result);
            }
            QVERIFY(!replay.next());
            QCOMPARE(so.searchBest, replay.best());
            // The scenario's verdict over all its points agrees with the search's best.
            std::vector<PointResult> values;
            for (const PointResult &r : results)
                values.push_back(withoutIntervals(r));
            QCOMPARE(judgeScenario(sc, values, {}).status == Verdict::Status::Pass, so.searchBest > 0);
            const PointResult &first = so.points.front().result;
            if (sc.slo.percentile == 90) {
                QCOMPARE(so.searchBest, sc.plan.cMax);
            } else if (sc.slo.percentile == 99.9) {
                QCOMPARE(so.searchBest, 0);
                const auto p99 = first.metricValue("ttft_ms", "p99");
                QVERIFY2(p99 && *p99 < sc.slo.ttftMs, "p99 reported and under the limit");
                QVERIFY(!first.metricValue("ttft_ms", "p999"));
            } else {
                QCOMPARE(so.searchBest, 0);
                const auto p50 = first.metricValue("ttft_ms", "p50");
                QVERIFY2(p50 && *p50 < sc.slo.ttftMs, "p50 reported and under the limit");
            }
        }
    }

    void liveTpot_data()
    {
        QTest::addColumn<RequestRecord>("record");
        // 1 + 10 tokens over 100 ms after the first: 10 ms.
        QTest::newRow("usage") << RecordBuilder().send(0).content({50, 100, 150}).usage(11).end(160).build();
        // The record's own (event) count disagrees with usage: usage wins in both.
        RequestRecord r = RecordBuilder().send(0).content({50, 100, 150}).usage(21).end(160).build();
        r.nOut = 3;
        QTest::newRow("usage over the record's count") << r;
        QTest::newRow("per-event tokens")
            << RecordBuilder().send(0).contentTokens({{40, 4}, {90, 3}, {140, 3}}).usage(10).end(150).build();
        QTest::newRow("event count only")
            << RecordBuilder().send(0).content({20, 40, 60, 80}).end(90).build();
        QTest::newRow("engine tokenizer count")
            << RecordBuilder().send(0).content({20, 40, 60}).engineTokenizerCount(9).end(70).build();
        QTest::newRow("undefined: one token")
            << RecordBuilder().send(0).content({20}).usage(1).end(30).build();
        QTest::newRow("no content") << RecordBuilder().send(0).end(30).build();
    }

    void liveTpot()
    {
        QFETCH(RequestRecord, record);
        const RequestMetrics m = computeRequestMetrics(record);
        const LiveSample s = LiveSnapshot::sampleOf(record);
        if (std::isnan(m.tpotMs)) {
            QCOMPARE(s.tpotMs, -1.0);
        } else {
            QVERIFY(m.tpotMs > 0);
            QCOMPARE(s.tpotMs, m.tpotMs);
        }
        QCOMPARE(s.nOut, m.nOut);
        QCOMPARE(requestTpotMs(record), m.tpotMs);
    }

    void campaignHash()
    {
        QFile f(QStringLiteral(THROUGHLINE_SOURCE_DIR "/resources/campaigns/demo.json"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const std::string fileText = f.readAll().toStdString();
        const auto parse = [](const std::string &text) {
            auto outcome = CampaignValidator().validate(text);
            return outcome.campaign ? campaignSha256(canonicalCampaignText(*outcome.campaign))
                                    : std::string();
        };
        const std::string fromFile = parse(fileText);
        QCOMPARE(fromFile.size(), std::size_t(64));
        // Reformatted (other indentation, key order as nlohmann sorts it): the same campaign, the same hash.
        nlohmann::json j = nlohmann::json::parse(fileText);
        QCOMPARE(parse(j.dump(8)), fromFile);
        // The canonical text hashes as itself: what both apps store is what storage keys on.
        auto outcome = CampaignValidator().validate(fileText);
        QVERIFY(outcome.campaign);
        QCOMPARE(campaignSha256(canonicalCampaignText(*outcome.campaign)), fromFile);
        // Another campaign, another hash.
        j["name"] = "Demo, renamed";
        QVERIFY(parse(j.dump()) != fromFile);
    }

    void pointLoadLabel()
    {
        QCOMPARE(Throughline::pointLoadLabel({PointLoad::Mode::Concurrency, 64, 0}), std::string("C=64"));
        QCOMPARE(Throughline::pointLoadLabel({PointLoad::Mode::Rate, 0, 2.5}), std::string("λ=2.5/s"));
        QCOMPARE(Throughline::pointLoadLabel({PointLoad::Mode::Rate, 0, 2}), std::string("λ=2/s"));
    }
};

QTEST_GUILESS_MAIN(TestOneRule)
#include "tst_onerule.moc"
