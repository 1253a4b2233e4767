// Verdicts: a table of targets × points → expected status, operating point and exit code.
#include "core/targets/verdict.h"

#include <QTest>

#include <cmath>
#include <limits>

#include <nlohmann/json.hpp>

using namespace Throughline;

namespace {

// A point with the given load, validity, throughput per GPU and TTFT p90 (n = 100 samples, so
// p50/p90 are reportable, p99 is not).
PointResult point(int concurrency, bool valid, double tpsPerGpu, double ttftP90, double tpotP90 = 20)
{
    PointResult p;
    p.load.concurrency = concurrency;
    p.validity.valid = valid;
    if (!valid)
        p.validity.flags = {"low_sample"};
    p.windowS = 100;
    p.nSent = p.nOk = 100;
    p.metrics.outputTps = tpsPerGpu;
    p.metrics.outputTpsPerGpu = tpsPerGpu;
    p.metrics.outputTpsPerDecodeGpu = tpsPerGpu;
    auto block = [](double p90) {
        std::vector<double> v(100, p90); // constant sample: every statistic equals p90
        return summarize(v);
    };
    p.metrics.ttftMs = block(ttftP90);
    p.metrics.tpotMs = block(tpotP90);
    p.metrics.e2eMs = block(ttftP90 + 100 * tpotP90);
    return p;
}

// The curve used by most rows: C = 1, 4, 16 valid; C = 64 invalid but fastest.
std::vector<PointResult> curve()
{
    return {point(1, true, 100, 50), point(4, true, 300, 200), point(16, true, 500, 800),
            point(64, false, 600, 2000)};
}

TargetRow row(const char *metric, const char *stat, Comparator cmp, double value, TargetKind kind)
{
    TargetRow r;
    r.metric = metric;
    r.stat = stat;
    r.cmp = cmp;
    r.value = value;
    r.kind = kind;
    return r;
}

constexpr auto GE = Comparator::GreaterEqual;
constexpr auto LE = Comparator::LessEqual;
constexpr auto Base = TargetKind::Baseline;
constexpr auto SloK = TargetKind::Slo;
constexpr auto Info = TargetKind::Informational;

} // namespace

Q_DECLARE_METATYPE(std::vector<Throughline::TargetRow>)
Q_DECLARE_METATYPE(std::vector<Throughline::PointResult>)
Q_DECLARE_METATYPE(Throughline::Slo)
Q_DECLARE_METATYPE(Throughline::Verdict::Status)

class TestVerdict : public QObject
{
    Q_OBJECT
private slots:
    void verdicts_data();
    void verdicts();
    void checkDetails();
    void exitCodes_data();
    void exitCodes();
    void sloStatKeys();
    void jsonRoundTrip();
    void baselineFromStoredRun();
    void intervalsDecide_data();
    void intervalsDecide();
    void inconclusiveNamesTheRequestsNeeded();
    void baselineIntervalWidensTheThreshold();
    void inconclusiveRoundTrips();
};

void TestVerdict::verdicts_data()
{
    QTest::addColumn<std::vector<TargetRow>>("targets");
    QTest::addColumn<std::vector<PointResult>>("points");
    QTest::addColumn<Slo>("slo");
    QTest::addColumn<int>("recipe");
    QTest::addColumn<Verdict::Status>("status");
    QTest::addColumn<int>("operatingPoint");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<int>("strictExitCode");

    const Slo none;
    QTest::newRow("no targets") << std::vector<TargetRow>{} << curve() << none << 0
                                << Verdict::Status::NoTarget << 2 << 0 << 1;
    // Exemplar rule: 500 ≥ 0.95 × 520 = 494 passes, 500 < 0.95 × 540 = 513 fails.
    QTest::newRow("baseline within 95 %")
        << std::vector<TargetRow>{row("output_tps_per_gpu", "value", GE, 520, Base)} << curve() << none << 0
        << Verdict::Status::Pass << 2 << 0 << 0;
    QTest::newRow("baseline below 95 %")
        << std::vector<TargetRow>{row("output_tps_per_gpu", "value", GE, 540, Base)} << curve() << none << 0
        << Verdict::Status::Fail << 2 << 1 << 1;
    // slo target at the same level as a baseline: no 95 % allowance.
    QTest::newRow("slo throughput floor")
        << std::vector<TargetRow>{row("output_tps_per_gpu", "value", GE, 510, SloK)} << curve() << Slo{} << 16
        << Verdict::Status::Fail << 2 << 1 << 1;
    // Scenario SLO TTFT p90 ≤ 300 ms: operating point = C=4 (300 tok/s); C=16 violates it.
    QTest::newRow("operating point meets SLO")
        << std::vector<TargetRow>{row("output_tps_per_gpu", "value", GE, 300, Base)} << curve()
        << Slo{300, 0, 0, 90} << 4 << Verdict::Status::Pass << 1 << 0 << 0;
    // Same SLO, judged at the designated (last) point, which is invalid → not judged; baseline passes.
    QTest::newRow("designated point invalid")
        << std::vector<TargetRow>{row("output_tps_per_gpu", "value", GE, 300, Base)} << curve()
        << Slo{300, 0, 0, 90} << 0 << Verdict::Status::Pass << 1 << 0 << 0;
    // Recipe concurrency 16: the scenario SLO is judged there and fails (800 > 300).
    QTest::newRow("scenario SLO fails at recipe point")
        << std::vector<TargetRow>{} << curve() << Slo{300, 0, 0, 90} << 16 << Verdict::Status::Fail << 1 << 1
        << 1;
    // No point meets the SLO → highest-throughput valid point.
    QTest::newRow("no point meets SLO")
        << std::vector<TargetRow>{row("output_tps_per_gpu", "value", GE, 100, Base)} << curve()
        << Slo{10, 0, 0, 90} << 1 << Verdict::Status::Fail << 2 << 1 << 1;
    QTest::newRow("slo target at recipe point")
        << std::vector<TargetRow>{row("ttft_ms", "p90", LE, 250, SloK)} << curve() << none << 4
        << Verdict::Status::Pass << 2 << 0 << 0;
    QTest::newRow("slo target fails at recipe point")
        << std::vector<TargetRow>{row("ttft_ms", "p90", LE, 100, SloK)} << curve() << none << 4
        << Verdict::Status::Fail << 2 << 1 << 1;
    QTest::newRow("all points invalid")
        << std::vector<TargetRow>{row("output_tps_per_gpu", "value", GE, 1, Base)}
        << std::vector<PointResult>{point(1, false, 100, 50), point(2, false, 200, 60)} << none << 0
        << Verdict::Status::Invalid << -1 << 4 << 1;
    QTest::newRow("no points") << std::vector<TargetRow>{} << std::vector<PointResult>{} << none << 0
                               << Verdict::Status::Invalid << -1 << 4 << 1;
    // Informational never fails and is not a judged target.
    QTest::newRow("informational only")
        << std::vector<TargetRow>{row("output_tps_per_gpu", "value", GE, 1000, Info)} << curve() << none << 0
        << Verdict::Status::NoTarget << 2 << 0 << 1;
    QTest::newRow("informational + baseline")
        << std::vector<TargetRow>{row("output_tps_per_gpu", "value", GE, 1000, Info),
                                  row("output_tps_per_gpu", "value", GE, 400, Base)}
        << curve() << none << 0 << Verdict::Status::Pass << 2 << 0 << 0;
    // p99 needs n ≥ 1000: n/a, not judged.
    QTest::newRow("unreportable percentile")
        << std::vector<TargetRow>{row("ttft_ms", "p99", LE, 5000, SloK)} << curve() << none << 0
        << Verdict::Status::NoTarget << 2 << 0 << 1;
    // Latency baseline (≤): passes up to target / 0.95; TTFT mean at C=16 is 800.
    QTest::newRow("latency baseline within 95 %")
        << std::vector<TargetRow>{row("ttft_ms", "mean", LE, 770, Base)} << curve() << none << 0
        << Verdict::Status::Pass << 2 << 0 << 0;
    QTest::newRow("latency baseline beyond 95 %")
        << std::vector<TargetRow>{row("ttft_ms", "mean", LE, 750, Base)} << curve() << none << 0
        << Verdict::Status::Fail << 2 << 1 << 1;
    // A target on the invalid point's metric can still fail a scenario whose other points are valid.
    QTest::newRow("fail beats invalid points")
        << std::vector<TargetRow>{row("output_tps_per_gpu", "value", GE, 1000, Base)}
        << std::vector<PointResult>{point(1, true, 100, 50), point(2, false, 2000, 60)} << none << 0
        << Verdict::Status::Fail << 0 << 1 << 1;
}

void TestVerdict::verdicts()
{
    QFETCH(std::vector<TargetRow>, targets);
    QFETCH(std::vector<PointResult>, points);
    QFETCH(Slo, slo);
    QFETCH(int, recipe);
    QFETCH(Verdict::Status, status);
    QFETCH(int, operatingPoint);
    QFETCH(int, exitCode);
    QFETCH(int, strictExitCode);

    Scenario s;
    s.slo = slo;
    s.recipeConcurrency = recipe;
    const Verdict v = judgeScenario(s, points, targets);
    QCOMPARE(verdictStatusKey(v.status), verdictStatusKey(status));
    QCOMPARE(v.operatingPoint, operatingPoint);
    const std::vector<Verdict::Status> statuses{v.status};
    QCOMPARE(campaignExitCode(statuses, false), exitCode);
    QCOMPARE(campaignExitCode(statuses, true), strictExitCode);
}

void TestVerdict::checkDetails()
{
    Scenario s;
    s.recipeConcurrency = 4;
    const auto pts = curve();
    const Verdict v =
        judgeScenario(s, pts,
                      {row("output_tps_per_gpu", "value", GE, 520, Base),
                       row("output_tps_per_gpu", "value", GE, 1000, Info),
                       row("ttft_ms", "p90", LE, 250, SloK), row("ttft_ms", "p99", LE, 250, SloK)});
    QCOMPARE(v.checks.size(), std::size_t(4));
    const VerdictCheck &b = v.checks[0];
    QCOMPARE(b.point, 2);
    QCOMPARE(b.value, 500.0);
    QVERIFY(std::abs(b.marginPct - (500.0 - 520.0) / 520.0 * 100) < 1e-9); // negative, yet passes (95 % rule)
    QCOMPARE(b.outcome, VerdictCheck::Outcome::Pass);
    const VerdictCheck &i = v.checks[1];
    QCOMPARE(i.outcome, VerdictCheck::Outcome::Info);
    QCOMPARE(i.pctOfTarget, 50.0); // "50 % of published offline max"
    const VerdictCheck &l = v.checks[2];
    QCOMPARE(l.point, 1);
    QCOMPARE(l.value, 200.0);
    QCOMPARE(l.marginPct, 20.0); // (250 − 200) / 250
    QCOMPARE(l.outcome, VerdictCheck::Outcome::Pass);
    QCOMPARE(v.checks[3].outcome, VerdictCheck::Outcome::NotAvailable);
    QVERIFY(std::isnan(v.checks[3].value));
}

void TestVerdict::exitCodes_data()
{
    using S = Verdict::Status;
    QTest::addColumn<std::vector<int>>("statuses");
    QTest::addColumn<int>("code");
    QTest::addColumn<int>("strictCode");
    QTest::newRow("empty campaign") << std::vector<int>{} << 0 << 0;
    QTest::newRow("all pass") << std::vector<int>{int(S::Pass), int(S::Pass)} << 0 << 0;
    QTest::newRow("pass + no_target") << std::vector<int>{int(S::Pass), int(S::NoTarget)} << 0 << 1;
    QTest::newRow("pass + invalid") << std::vector<int>{int(S::Pass), int(S::Invalid)} << 4 << 1;
    QTest::newRow("fail + invalid") << std::vector<int>{int(S::Fail), int(S::Invalid)} << 1 << 1;
    QTest::newRow("invalid + no_target") << std::vector<int>{int(S::Invalid), int(S::NoTarget)} << 4 << 1;
    QTest::newRow("fail alone") << std::vector<int>{int(S::Fail)} << 1 << 1;
    QTest::newRow("pass + inconclusive") << std::vector<int>{int(S::Pass), int(S::Inconclusive)} << 0 << 1;
    QTest::newRow("fail + inconclusive") << std::vector<int>{int(S::Fail), int(S::Inconclusive)} << 1 << 1;
}

void TestVerdict::exitCodes()
{
    QFETCH(std::vector<int>, statuses);
    QFETCH(int, code);
    QFETCH(int, strictCode);
    std::vector<Verdict::Status> st;
    for (int s : statuses)
        st.push_back(static_cast<Verdict::Status>(s));
    QCOMPARE(campaignExitCode(st, false), code);
    QCOMPARE(campaignExitCode(st, true), strictCode);
}

void TestVerdict::sloStatKeys()
{
    QCOMPARE(sloStatKey(90), std::string("p90"));
    QCOMPARE(sloStatKey(99), std::string("p99"));
    QCOMPARE(sloStatKey(99.9), std::string("p999"));
    QCOMPARE(sloStatKey(95), std::string("p95"));
    const auto rows = sloRows(Slo{2000, 80, 0, 99});
    QCOMPARE(rows.size(), std::size_t(2));
    QCOMPARE(rows[0].metric, std::string("ttft_ms"));
    QCOMPARE(rows[1].stat, std::string("p99"));
    QVERIFY(pointMeetsSlo(point(1, true, 1, 50), Slo{}));
    QVERIFY(pointMeetsSlo(point(1, true, 1, 50), Slo{50, 0, 0, 90}));
    QVERIFY(!pointMeetsSlo(point(1, true, 1, 50), Slo{49, 0, 0, 90}));
    QVERIFY(!pointMeetsSlo(point(1, true, 1, 50), Slo{1000, 0, 0, 99})); // p99 not reportable at n = 100
}

void TestVerdict::jsonRoundTrip()
{
    Scenario s;
    s.recipeConcurrency = 4;
    const auto pts = curve();
    const Verdict v = judgeScenario(
        s, pts, {row("output_tps_per_gpu", "value", GE, 520, Base), row("ttft_ms", "p99", LE, 250, SloK)});
    const nlohmann::json j = v.toJson();
    QCOMPARE(j["status"].get<std::string>(), std::string("pass"));
    QCOMPARE(j["operating_point"].get<int>(), 2);
    for (const char *k : {"metric", "stat", "cmp", "target", "value", "margin_pct", "kind"})
        QVERIFY2(j["checks"][0].contains(k), k);
    QVERIFY(j["checks"][1]["value"].is_null());
    QCOMPARE(j["checks"][1]["result"].get<std::string>(), std::string("n/a"));
    const auto back = Verdict::fromJson(j);
    QVERIFY(back.ok());
    QVERIFY(back->toJson() == j);
    nlohmann::json bad = j;
    bad["status"] = "maybe";
    QVERIFY(!Verdict::fromJson(bad).ok());
}

void TestVerdict::baselineFromStoredRun()
{
    // Baseline run's operating point: 520 tok/s/GPU, TTFT mean 700 ms.
    const auto rows = baselineRowsFromPoint(point(16, true, 520, 700), "run 0b3e7f7c");
    QCOMPARE(rows.size(), std::size_t(2));
    QCOMPARE(rows[0].metric, std::string("output_tps_per_gpu"));
    QCOMPARE(rows[0].value, 520.0);
    QCOMPARE(rows[1].metric, std::string("ttft_ms"));
    QCOMPARE(rows[1].stat, std::string("mean"));
    // Current run: 500 tok/s/GPU (≥ 494: pass), TTFT mean 800 > 700 / 0.95 = 736.8: fail.
    Scenario s;
    const auto pts = curve();
    const Verdict v = judgeScenario(s, pts, rows);
    QCOMPARE(v.checks[0].outcome, VerdictCheck::Outcome::Pass);
    QCOMPARE(v.checks[1].outcome, VerdictCheck::Outcome::Fail);
    QCOMPARE(v.status, Verdict::Status::Fail);
    QCOMPARE(baselineRowsFromPoint(PointResult{}, "empty").size(), std::size_t(0));
}

namespace {
// A point whose TTFT p90 of 800 ms carries the interval [lower, upper] (±∞ = open) at 95 %.
PointResult withTtftInterval(double lower, double upper)
{
    PointResult p = point(16, true, 500, 800);
    Interval iv;
    iv.lower = lower;
    iv.upper = upper;
    iv.method = IntervalMethod::OrderStatistic;
    p.intervals.level = 0.95;
    p.intervals.set("ttft_ms", "p90", iv);
    return p;
}
constexpr double kInf = std::numeric_limits<double>::infinity();
} // namespace

void TestVerdict::intervalsDecide_data()
{
    QTest::addColumn<double>("lower");
    QTest::addColumn<double>("upper");
    QTest::addColumn<double>("limit");
    QTest::addColumn<int>("outcome");
    using O = VerdictCheck::Outcome;
    QTest::newRow("all below the limit") << 700.0 << 900.0 << 1000.0 << int(O::Pass);
    QTest::newRow("all above the limit") << 700.0 << 900.0 << 600.0 << int(O::Fail);
    QTest::newRow("straddles") << 700.0 << 900.0 << 850.0 << int(O::Inconclusive);
    QTest::newRow("value below, interval not") << 700.0 << 900.0 << 810.0 << int(O::Inconclusive);
    QTest::newRow("upper side open") << 700.0 << kInf << 1000.0 << int(O::Inconclusive);
    QTest::newRow("open side away from the limit") << 700.0 << kInf << 600.0 << int(O::Fail);
}

// The value alone passes "TTFT p90 ≤ 810" (800 ms) but its interval reaches 900: inconclusive, not pass.
void TestVerdict::intervalsDecide()
{
    QFETCH(double, lower);
    QFETCH(double, upper);
    QFETCH(double, limit);
    QFETCH(int, outcome);
    const std::vector<PointResult> pts{withTtftInterval(lower, upper)};
    const VerdictCheck c = judgeRow(row("ttft_ms", "p90", LE, limit, SloK), pts, 0);
    QCOMPARE(int(c.outcome), outcome);
    QCOMPARE(c.value, 800.0);
    QCOMPARE(c.lower, lower);
    QCOMPARE(c.upper, upper);
    QCOMPARE(c.level, 0.95);
    Scenario s;
    const Verdict v = judgeScenario(s, pts, {row("ttft_ms", "p90", LE, limit, SloK)});
    const auto expected = outcome == int(VerdictCheck::Outcome::Pass)   ? Verdict::Status::Pass
                          : outcome == int(VerdictCheck::Outcome::Fail) ? Verdict::Status::Fail
                                                                        : Verdict::Status::Inconclusive;
    QCOMPARE(v.status, expected);
}

void TestVerdict::inconclusiveNamesTheRequestsNeeded()
{
    // Half-width 100 ms at n = 100, 50 ms from the limit: N = 100 · ((1.96 + 0.84) · 100 / (1.96 · 50))² ≈
    // 817.
    const std::vector<PointResult> pts{withTtftInterval(700, 900)};
    const VerdictCheck c = judgeRow(row("ttft_ms", "p90", LE, 850, SloK), pts, 0);
    QCOMPARE(c.outcome, VerdictCheck::Outcome::Inconclusive);
    QVERIFY2(c.requestsNeeded > 780 && c.requestsNeeded < 860, qPrintable(QString::number(c.requestsNeeded)));
    QVERIFY(!c.requestsNeededIsMinimum);
    // A limit exactly at the estimate: no number of requests decides it.
    const VerdictCheck on = judgeRow(row("ttft_ms", "p90", LE, 800, SloK), pts, 0);
    QCOMPARE(on.outcome, VerdictCheck::Outcome::Inconclusive);
    QCOMPARE(on.requestsNeeded, 0.0);
    // The side toward the limit is open though n = 100 is past the min-n rule (dependence): the bounded
    // side mirrored gives an estimate, flagged as a minimum.
    const std::vector<PointResult> open{withTtftInterval(700, kInf)};
    const VerdictCheck m = judgeRow(row("ttft_ms", "p90", LE, 1000, SloK), open, 0);
    QCOMPARE(m.outcome, VerdictCheck::Outcome::Inconclusive);
    QVERIFY(m.requestsNeeded > 100);
    QVERIFY(m.requestsNeededIsMinimum);
    // With the effective sample size known (n / τ = 12 of 100 requests), the upper bound of p90 at 95 %
    // needs 36 effective samples (0.9ⁿ ≤ 0.025): 100 · 36 / 12 = 300 requests, at least.
    PointResult dependent = withTtftInterval(700, kInf);
    Interval iv = *dependent.intervals.find("ttft_ms", "p90");
    iv.effectiveN = 12;
    dependent.intervals.set("ttft_ms", "p90", iv);
    const std::vector<PointResult> dep{dependent};
    const VerdictCheck d = judgeRow(row("ttft_ms", "p90", LE, 1000, SloK), dep, 0);
    QCOMPARE(d.outcome, VerdictCheck::Outcome::Inconclusive);
    QCOMPARE(d.requestsNeeded, 300.0);
    QVERIFY(d.requestsNeededIsMinimum);
}

// Exemplar's 95 % rule judged against a baseline whose own figure is uncertain: the candidate's interval
// must clear 0.95 × the baseline's whole interval to pass.
void TestVerdict::baselineIntervalWidensTheThreshold()
{
    PointResult base = point(16, true, 520, 700);
    Interval b;
    b.lower = 500;
    b.upper = 540;
    b.method = IntervalMethod::BlockBootstrap;
    base.intervals.level = 0.95;
    base.intervals.set("output_tps_per_gpu", "value", b);
    const auto rows = baselineRowsFromPoint(base, "run 0b3e7f7c");
    QCOMPARE(rows[0].valueLower, 500.0);
    QCOMPARE(rows[0].valueUpper, 540.0);

    PointResult cand = point(16, true, 500, 700);
    Interval c;
    c.lower = 497; // above 0.95 × 520 = 494, below 0.95 × 540 = 513
    c.upper = 503;
    c.method = IntervalMethod::BlockBootstrap;
    cand.intervals.level = 0.95;
    cand.intervals.set("output_tps_per_gpu", "value", c);
    const std::vector<PointResult> pts{cand};
    const VerdictCheck v = judgeRow(rows[0], pts, 0);
    QCOMPARE(v.outcome, VerdictCheck::Outcome::Inconclusive);
    QCOMPARE(v.targetLower, 500.0);
    QCOMPARE(v.targetUpper, 540.0);
    TargetRow plain = rows[0];
    plain.valueLower = plain.valueUpper = std::nan("");
    QCOMPARE(judgeRow(plain, pts, 0).outcome, VerdictCheck::Outcome::Pass); // 497 ≥ 494
}

void TestVerdict::inconclusiveRoundTrips()
{
    Scenario s;
    const std::vector<PointResult> pts{withTtftInterval(700, kInf)};
    const Verdict v = judgeScenario(s, pts, {row("ttft_ms", "p90", LE, 1000, SloK)});
    const nlohmann::json j = v.toJson();
    QCOMPARE(j["status"].get<std::string>(), std::string("inconclusive"));
    const nlohmann::json &c = j["checks"][0];
    QCOMPARE(c["result"].get<std::string>(), std::string("inconclusive"));
    QCOMPARE(c["interval"]["lower"].get<double>(), 700.0);
    QVERIFY(c["interval"]["upper"].is_null());
    QVERIFY(c["requests_needed"].get<double>() > 100);
    QVERIFY(c["requests_needed_is_minimum"].get<bool>());
    const auto back = Verdict::fromJson(j);
    QVERIFY2(back.ok(), back.ok() ? "" : back.error().message.c_str());
    QCOMPARE(back->status, Verdict::Status::Inconclusive);
    QVERIFY(std::isinf(back->checks[0].upper));
    QVERIFY(back->toJson() == j);
    nlohmann::json bad = j;
    bad["checks"][0]["interval"]["level"] = 7;
    const auto err = Verdict::fromJson(bad);
    QVERIFY(!err.ok());
    QVERIFY2(err.error().message.find("checks[].interval.level") != std::string::npos,
             err.error().message.c_str());
}

QTEST_GUILESS_MAIN(TestVerdict)
#include "tst_verdict.moc"
