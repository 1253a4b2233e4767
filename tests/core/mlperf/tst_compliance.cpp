// Compliance checks on campaigns built in the test: a compliant time-scaled v1.0 campaign passes every
// client-checkable rule; campaigns built to break one rule each fail exactly that rule, and — where the rule
// allows — while points are still to come; partial campaigns are pending; v0.7 turns the Offline and
// steady-state rules off; early-stopping shortfalls are informational; evidence from a PointResult.
#include "core/metrics/pointresult.h"
#include "core/mlperf/compliance.h"
#include "core/mlperf/scenariocheck.h"

#include <QTest>

#include <set>

using namespace Throughline;
using namespace Throughline::Mlperf;

namespace {

constexpr long long kDataset = 4388; // legacy_mlperf_deepseek_r1 (VAL-07)
constexpr double kScale = 100;       // a time-scaled simulator rehearsal: model time runs 100× faster

const RulesPreset &v10()
{
    static const RulesPreset p = loadRulesPreset("mlperf-endpoints-1.0").value();
    return p;
}

// A point meeting every point rule of the preset, with the duration its region needs.
PointEvidence goodPoint(const PlannedPoint &pp, double tps)
{
    PointEvidence e;
    e.concurrency = pp.concurrency;
    e.offline = pp.role == PlannedPoint::Role::Offline;
    e.systemTps = tps;
    e.elapsedS = std::max(pp.minDurationS, 30.0);
    e.outputTokens = tps * e.elapsedS;
    e.tpotP90Ms = 10 + pp.concurrency / 100.0;
    e.tpsPerUser = 1000.0 / e.tpotP90Ms;
    e.ttftMs = 200;
    e.nIssued = e.offline ? kDataset : 5 * kDataset;
    e.nCompleted = e.nIssued;
    e.nTtft = e.nTpot = e.nCompleted;
    e.steadyIssueSpanS = pp.minDurationS; // exactly the minimum
    e.timeScale = kScale;
    e.durationNs = e.elapsedS * 1e9;
    e.superPassesInWindow = static_cast<int>(e.nIssued / kDataset);
    e.steadyStateVerdict = "STEADY STATE";
    e.sampleOrderWithReplacement = true;
    return e;
}

CampaignEvidence plannedCampaign(std::vector<PlannedPoint> plan)
{
    CampaignEvidence c;
    c.cMax = 1024;
    c.offline = OfflineMode::Dedicated;
    c.datasetSize = kDataset;
    c.plan = std::move(plan);
    return c;
}

std::vector<PlannedPoint> standardPlan()
{
    return planPoints({16, 1024, 8, OfflineMode::Dedicated, kDataset}, v10()).value().points;
}

// Measures the first n planned points with good evidence (throughput rising with concurrency; the Offline
// point just above the C_max point's).
void measure(CampaignEvidence &c, std::size_t n)
{
    for (std::size_t i = c.measured.size(); i < n && i < c.plan.size(); ++i) {
        const PlannedPoint &pp = c.plan[i];
        const double tps = pp.role == PlannedPoint::Role::Offline ? 1024 * 10.0 : pp.concurrency * 10.0;
        c.measured.push_back(goodPoint(pp, tps));
    }
    c.finished = c.measured.size() == c.plan.size();
}

QString failed(const ComplianceReport &r)
{
    QStringList ids;
    for (const auto &id : r.failedRules)
        ids << QString::fromStdString(id);
    return ids.join(u',');
}

std::size_t indexOf(const std::vector<PlannedPoint> &plan, Region region)
{
    for (std::size_t i = 0; i < plan.size(); ++i)
        if (plan[i].region == region)
            return i;
    return plan.size();
}

enum class Break {
    TooFewPoints,
    MissingRegion,
    ShortWindow,
    ShortUltraLowWindow,
    NoSteadyState,
    Drifting,
    OfflineSlow
};

} // namespace

Q_DECLARE_METATYPE(Break)

class TestCompliance : public QObject
{
    Q_OBJECT
private slots:
    void compliantRehearsalPassesEveryClientCheckableRule()
    {
        CampaignEvidence c = plannedCampaign(standardPlan());
        measure(c, c.plan.size());
        const auto rep = evaluateCompliance(c, v10());
        QCOMPARE(rep.presetId, std::string("mlperf-endpoints-1.0"));
        QCOMPARE(rep.overall, CheckState::Pass);
        QVERIFY2(rep.failedRules.empty(), qPrintable(failed(rep)));
        QCOMPARE(rep.blockedRules, (std::vector<std::string>{"EPR-40", "VAL-04"}));
        std::set<std::string> ids;
        for (const CheckResult &r : rep.checks) {
            QVERIFY2(ids.insert(r.ruleId).second, r.ruleId.c_str()); // one check per rule
            QVERIFY2(r.state == CheckState::Pass || r.state == CheckState::Blocked,
                     (r.ruleId + ": " + std::string(checkStateKey(r.state)) + " " + r.detail).c_str());
        }
        for (const char *id :
             {"EPR-01", "EPR-02", "EPR-03", "EPR-04", "EPR-08", "EPR-10", "EPR-11", "EPR-12", "EPR-13",
              "EPR-15", "EPR-16", "EPR-17", "EPR-19", "EPR-20", "EPR-23", "EPR-24", "EPR-25", "EPR-26",
              "EPR-27", "EPR-28", "EPR-29", "EPR-30", "EPR-31", "EPR-34", "EPR-36", "EPR-37", "EPR-38",
              "EPR-39", "EPR-40", "EPR-41", "VAL-01", "VAL-02", "VAL-04", "CLI-02"})
            QVERIFY2(ids.count(id), id);
        // Durations counted in model time, the scale recorded in the point's line.
        const auto perPoint = evaluatePoint(c.measured[1], c, v10());
        bool sawDuration = false;
        for (const CheckResult &r : perPoint) {
            QCOMPARE(r.state == CheckState::Fail, false);
            if (r.ruleId == "EPR-29") {
                sawDuration = true;
                QVERIFY2(r.detail.find("model time; time scale 100: 12.0 s wall") != std::string::npos,
                         r.detail.c_str());
            }
        }
        QVERIFY(sawDuration);
    }

    void partialCampaignIsPending()
    {
        CampaignEvidence c = plannedCampaign(standardPlan());
        measure(c, 3);
        QVERIFY(!c.finished);
        const auto rep = evaluateCompliance(c, v10());
        QCOMPARE(rep.overall, CheckState::Pending);
        QVERIFY(rep.failedRules.empty());
        QCOMPARE(rep.find("EPR-08")->state, CheckState::Pending);
        QCOMPARE(rep.find("EPR-11")->state, CheckState::Pass); // C_min measured first
        QCOMPARE(rep.find("EPR-17")->state, CheckState::Pending);
        QCOMPARE(rep.find("EPR-23")->state, CheckState::Pending);
        QCOMPARE(rep.find("EPR-29")->state, CheckState::Pending);
        // Nothing measured yet: still pending, never a pass for want of evidence.
        CampaignEvidence empty = plannedCampaign(standardPlan());
        QCOMPARE(evaluateCompliance(empty, v10()).overall, CheckState::Pending);
    }

    void breakOneRule_data()
    {
        QTest::addColumn<Break>("what");
        QTest::addColumn<QString>("rule");
        QTest::addColumn<int>("flaggedAfter"); // points measured when the failure must already show
        QTest::newRow("too few points") << Break::TooFewPoints << QStringLiteral("EPR-08") << 0;
        QTest::newRow("missing region") << Break::MissingRegion << QStringLiteral("EPR-16") << 0;
        QTest::newRow("short window") << Break::ShortWindow << QStringLiteral("EPR-29") << 2;
        QTest::newRow("short Ultra Low window")
            << Break::ShortUltraLowWindow << QStringLiteral("EPR-28") << 1;
        QTest::newRow("no steady state") << Break::NoSteadyState << QStringLiteral("EPR-30") << 6;
        QTest::newRow("drifting") << Break::Drifting << QStringLiteral("EPR-31") << 6;
        QTest::newRow("Offline below 0.98 x C_max") << Break::OfflineSlow << QStringLiteral("EPR-23") << 8;
    }

    void breakOneRule()
    {
        QFETCH(Break, what);
        QFETCH(QString, rule);
        QFETCH(int, flaggedAfter);
        std::vector<PlannedPoint> plan = standardPlan();
        QCOMPARE(plan.size(), std::size_t(8));
        if (what == Break::TooFewPoints) {
            // Drop a choice point: 7 points with a dedicated Offline point.
            const auto it = std::find_if(plan.begin(), plan.end(), [](const PlannedPoint &p) {
                return p.role == PlannedPoint::Role::Choice;
            });
            QVERIFY(it != plan.end());
            plan.erase(it);
        } else if (what == Break::MissingRegion) {
            // Every Medium point moved into High (still 8 points).
            int shift = 0;
            for (PlannedPoint &p : plan)
                if (p.region == Region::Medium)
                    p = {600 + ++shift, Region::High, PlannedPoint::Role::Choice, 1200};
            std::sort(plan.begin(), plan.end() - 1, [](const PlannedPoint &a, const PlannedPoint &b) {
                return a.concurrency < b.concurrency;
            });
        }
        CampaignEvidence c = plannedCampaign(plan);
        measure(c, c.plan.size());
        const std::size_t low = indexOf(c.plan, Region::Low);
        const std::size_t ultraLow = indexOf(c.plan, Region::UltraLow);
        const std::size_t high = indexOf(c.plan, Region::High);
        switch (what) {
        case Break::ShortWindow:
            c.measured[low].steadyIssueSpanS = 1100;
            QCOMPARE(int(low) + 1, flaggedAfter);
            break;
        case Break::ShortUltraLowWindow:
            c.measured[ultraLow].steadyIssueSpanS = 599;
            QCOMPARE(int(ultraLow) + 1, flaggedAfter);
            break;
        case Break::NoSteadyState:
            c.measured[high].superPassesInWindow = 3;
            QCOMPARE(int(high) + 1, flaggedAfter);
            break;
        case Break::Drifting:
            c.measured[high].steadyStateVerdict = "drifting_up";
            QCOMPARE(int(high) + 1, flaggedAfter);
            break;
        case Break::OfflineSlow: {
            const double top = c.measured[c.measured.size() - 2].systemTps; // the C_max point
            QCOMPARE(c.measured[c.measured.size() - 2].concurrency, 1024);
            c.measured.back().systemTps = 0.97 * top;
            c.measured.back().outputTokens = c.measured.back().systemTps * c.measured.back().elapsedS;
            break;
        }
        default:
            break;
        }
        // The whole campaign: exactly that rule.
        const auto whole = evaluateCompliance(c, v10());
        QCOMPARE(failed(whole), rule);
        QCOMPARE(whole.overall, CheckState::Fail);
        QVERIFY(!whole.find(rule.toStdString())->detail.empty());
        // Live: with only the first `flaggedAfter` points measured the campaign is already flagged, with the
        // rule id, while later points are still to come (the Offline rule needs its last point).
        CampaignEvidence live = c;
        live.measured.resize(flaggedAfter);
        live.finished = false;
        const auto early = evaluateCompliance(live, v10());
        QCOMPARE(failed(early), rule);
        QCOMPARE(early.overall, CheckState::Fail);
        if (flaggedAfter < int(c.plan.size()))
            QVERIFY(live.measured.size() < live.plan.size());
        if (flaggedAfter > 0) {
            // One point earlier the campaign could still comply.
            live.measured.resize(flaggedAfter - 1);
            QVERIFY2(evaluateCompliance(live, v10()).failedRules.empty(),
                     qPrintable(failed(evaluateCompliance(live, v10()))));
        }
    }

    void missingOfflinePointAndBadPlansFailBeforeTheyRun()
    {
        std::vector<PlannedPoint> plan = standardPlan();
        plan.back().concurrency = 1000; // an Offline point below C_max (and not the dataset size)
        CampaignEvidence c = plannedCampaign(plan);
        const auto rep = evaluateCompliance(c, v10());
        QCOMPARE(failed(rep), QStringLiteral("EPR-24,EPR-25"));
        // A point planned beyond the margin ceil(1.1 × 1024) = 1127.
        plan = standardPlan();
        plan.insert(plan.end() - 1, PlannedPoint{1200, Region::OutOfRange, PlannedPoint::Role::Choice, 1200});
        QCOMPARE(failed(evaluateCompliance(plannedCampaign(plan), v10())), QStringLiteral("EPR-19"));
    }

    void earlyStoppingIsInformational()
    {
        CampaignEvidence c = plannedCampaign(standardPlan());
        measure(c, c.plan.size());
        c.measured[0].nTpot = 50; // below the 64 samples a p90 estimate needs at 0.99
        const auto rep = evaluateCompliance(c, v10());
        QCOMPARE(rep.find("CLI-02")->state, CheckState::Fail);
        QCOMPARE(rep.find("CLI-02")->severity, Severity::Info);
        QVERIFY2(rep.find("CLI-02")->detail.find("needs 64") != std::string::npos,
                 rep.find("CLI-02")->detail.c_str());
        QCOMPARE(rep.overall, CheckState::Pass);
        c.measured[0].nTpot = 100; // p90 estimate, no p99 estimate (needs 662): a pass that says so
        const auto rep2 = evaluateCompliance(c, v10());
        QCOMPARE(rep2.find("CLI-02")->state, CheckState::Pass);
    }

    void v07TurnsOfflineAndSteadyStateOff()
    {
        const auto v07 = loadRulesPreset("mlperf-endpoints-0.7").value();
        CampaignEvidence c =
            plannedCampaign(planPoints({16, 1024, 0, OfflineMode::None, 0}, v07).value().points);
        c.offline = OfflineMode::None;
        measure(c, c.plan.size());
        for (auto &p : c.measured)
            p.steadyStateVerdict.clear(); // v0.7 has no §4.4 detector
        const auto rep = evaluateCompliance(c, v07);
        QCOMPARE(rep.overall, CheckState::Pass);
        for (const char *id : {"EPR-23", "EPR-24", "EPR-25", "EPR-26", "EPR-30", "EPR-31"})
            QCOMPARE(rep.find(id)->state, CheckState::NotApplicable);
        QCOMPARE(rep.find("EPR-09")->state, CheckState::Pass); // 7 points
        const auto perPoint = evaluatePoint(c.measured[0], c, v07);
        const auto ttft = std::find_if(perPoint.begin(), perPoint.end(),
                                       [](const CheckResult &r) { return r.ruleId == "EPR-03"; });
        QVERIFY(ttft != perPoint.end());
        QVERIFY2(ttft->detail.find("P95") != std::string::npos, ttft->detail.c_str());
    }

    void finishedScenarioAfterTheFact()
    {
        // A results.json scenario: C = 16 … 1024 as fixed-concurrency points, the 4388 point as the dedicated
        // Offline run; one Low point's window is short.
        ScenarioResult s;
        s.id = "m/b/H200×8/Chat";
        for (int c : {16, 20, 26, 60, 117, 500, 1024, 4388}) {
            PointResult p;
            p.load.concurrency = c;
            p.windowS = c == 20 ? 1000 : (c <= 32 && c != 20 && c != 26 ? 600 : 1200);
            p.nSent = p.nOk = c == 4388 ? 4388 : 5 * 4388;
            p.metrics.outputTpsMlperf = c == 4388 ? 10240 : c * 10.0;
            p.metrics.tpotMlperfMs.n = p.metrics.ttftMs.n = static_cast<std::size_t>(p.nOk);
            p.metrics.tpotMlperfMs.p[1] = 10 + c / 100.0;
            p.metrics.ttftMs.p[1] = 200;
            s.points.push_back(p);
        }
        PointResult rate; // a rate point is not a curve point
        rate.load.mode = PointLoad::Mode::Rate;
        s.points.push_back(rate);
        const auto c = evidenceOfScenario(s, v10(), {0, kDataset, 4388}, kScale);
        QCOMPARE(c.cMax, 1024); // the largest fixed concurrency, the Offline run excluded
        QCOMPARE(c.offline, OfflineMode::Dedicated);
        QCOMPARE(c.measured.size(), std::size_t(8));
        QVERIFY(c.measured.back().offline);
        QVERIFY(c.finished);
        const auto rep = evaluateCompliance(c, v10());
        // EPR-29: C=20 is in Low (17 … 26), 1000 s < 1200 s; EPR-31 and EPR-38 are blocked (no detector, no
        // recorded sample order) — exactly what a real Throughline run reports today.
        QCOMPARE(failed(rep), QStringLiteral("EPR-29"));
        QCOMPARE(rep.find("EPR-29")->failingPoints, std::vector<int>{20});
        QCOMPARE(rep.blockedRules, (std::vector<std::string>{"EPR-31", "EPR-38", "EPR-40", "VAL-04"}));
        const auto line = pointLine(20, false, evaluatePoint(c.measured[1], c, v10()));
        QVERIFY2(line.rfind("C=20: fail EPR-29 (1000 s of steady-state issue span", 0) == 0, line.c_str());
        QVERIFY2(line.find("blocked (EPR-31, EPR-38)") != std::string::npos, line.c_str());
    }

    void evidenceFromAPointResult()
    {
        PointResult p;
        p.load.concurrency = 64;
        p.windowS = 1250;
        p.nSent = 4 * 4388;
        p.nOk = p.nSent - 3;
        p.metrics.outputTpsMlperf = 5000;
        p.metrics.tpotMlperfMs.n = 1000;
        p.metrics.tpotMlperfMs.p[1] = 20;
        p.metrics.ttftMs.n = 1000;
        p.metrics.ttftMs.p[1] = 150; // p90
        p.metrics.ttftMs.p[2] = 180; // p95
        const auto e = evidenceOf(p, v10(), 4388, 0.5);
        QCOMPARE(e.concurrency, 64);
        QCOMPARE(e.systemTps, 5000.0);
        QCOMPARE(e.tpsPerUser, 50.0);
        QCOMPARE(e.tpotP90Ms, 20.0);
        QCOMPARE(e.ttftMs, 150.0);
        QCOMPARE(e.steadyIssueSpanS, 1250.0);
        QCOMPARE(e.timeScale, 0.5);
        QCOMPARE(e.nFailed, 3LL);
        QCOMPARE(e.superPassesInWindow, 4);
        const auto v07 = loadRulesPreset("mlperf-endpoints-0.7").value();
        QCOMPARE(evidenceOf(p, v07, 4388, 1).ttftMs, 180.0); // P95 under v0.7
    }
};

QTEST_GUILESS_MAIN(TestCompliance)
#include "tst_compliance.moc"
