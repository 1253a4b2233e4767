// The stored shape of one request's breakdown (compact JSON, every part's value, status and alignment) and
// the per-point summary of a join: distributions over the measured requests only, the status most requests
// have, the join's counts and clock, and a JSON round trip to identical values; bad input names the field.
#include "core/metrics/timingsummary.h"
#include "core/servertiming/breakdownjson.h"

#include <QTest>

#include <cmath>

using namespace Throughline;
using nlohmann::json;

namespace {

RequestBreakdown sample(std::uint64_t seq, double prefillMs)
{
    RequestBreakdown b;
    b.seq = seq;
    b[BreakdownPart::ClientQueue] = {0.0125, PartStatus::Measured, false};
    b[BreakdownPart::NetworkUp] = {0.3004, PartStatus::Measured, true};
    b[BreakdownPart::Prefill] = {prefillMs, PartStatus::Measured, false};
    b[BreakdownPart::Unattributed] = {1.5, PartStatus::Derived, false};
    b.alignBoundMs = 0.042;
    return b;
}

bool same(double a, double b)
{
    return (std::isnan(a) && std::isnan(b)) || a == b;
}

} // namespace

class TestTimingSummary : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void breakdownRoundTrip();
    void breakdownErrorsNameTheField_data();
    void breakdownErrorsNameTheField();
    void summaryOfMeasuredRequests();
    void summaryRoundTrip();
    void summaryErrorsNameTheField();
    void summaryFromStoredBreakdowns();
};

void TestTimingSummary::breakdownRoundTrip()
{
    RequestBreakdown b = sample(41, 12.3456789);
    b.problem = "request r-41: vLLM metrics field `metrics.queue_time_ms`: expected a number, got a string";
    const json j = breakdownToJson(b);
    QCOMPARE(j["status"].get<std::string>(), std::string("muMuumuuuud"));
    QVERIFY(j["ms"][1].is_null());              // connect_send unknown
    QCOMPARE(j["ms"][5].get<double>(), 12.346); // µs precision
    auto back = breakdownFromJson(json::parse(j.dump()));
    QVERIFY2(back, back ? "" : back.error().message.c_str());
    QCOMPARE(back->seq, std::uint64_t(41));
    QCOMPARE(back->problem, b.problem);
    QCOMPARE(back->alignBoundMs, 0.042);
    for (int i = 0; i < kBreakdownParts; ++i) {
        const PartValue &was = b.parts[size_t(i)], &now = back->parts[size_t(i)];
        QCOMPARE(now.status, was.status);
        QCOMPARE(now.aligned, was.aligned);
        QVERIFY2(same(now.ms, std::isnan(was.ms) ? was.ms : std::round(was.ms * 1e3) / 1e3),
                 breakdownPartKey(BreakdownPart(i)));
    }
    // No bound, no problem: the keys are left out and read back as none.
    RequestBreakdown plain;
    plain.seq = 2;
    const json pj = breakdownToJson(plain);
    QVERIFY(!pj.contains("bound_ms"));
    QVERIFY(!pj.contains("problem"));
    auto plainBack = breakdownFromJson(pj);
    QVERIFY(plainBack);
    QVERIFY(std::isnan(plainBack->alignBoundMs));
    QVERIFY(plainBack->problem.empty());
}

void TestTimingSummary::breakdownErrorsNameTheField_data()
{
    QTest::addColumn<QString>("doc");
    QTest::addColumn<QString>("field");
    const QString ms = u"[1,2,3,4,5,6,7,8,9,10,11]"_qs;
    QTest::newRow("no seq") << (u"{\"ms\":"_qs + ms + u",\"status\":\"mmmmmmmmmmm\"}"_qs) << u"`seq`"_qs;
    QTest::newRow("short ms") << u"{\"seq\":1,\"ms\":[1,2],\"status\":\"mmmmmmmmmmm\"}"_qs << u"`ms`"_qs;
    QTest::newRow("text in ms")
        << u"{\"seq\":1,\"ms\":[1,2,3,4,\"x\",6,7,8,9,10,11],\"status\":\"mmmmmmmmmmm\"}"_qs << u"`ms[4]`"_qs;
    QTest::newRow("short status") << (u"{\"seq\":1,\"ms\":"_qs + ms + u",\"status\":\"mm\"}"_qs)
                                  << u"`status`"_qs;
    QTest::newRow("bad letter") << (u"{\"seq\":1,\"ms\":"_qs + ms + u",\"status\":\"mmmmmxmmmmm\"}"_qs)
                                << u"unknown letter 'x' at 5"_qs;
    QTest::newRow("bound text") << (u"{\"seq\":1,\"ms\":"_qs + ms +
                                    u",\"status\":\"mmmmmmmmmmm\",\"bound_ms\":\"1\"}"_qs)
                                << u"`bound_ms`"_qs;
}

void TestTimingSummary::breakdownErrorsNameTheField()
{
    QFETCH(QString, doc);
    QFETCH(QString, field);
    auto r = breakdownFromJson(json::parse(doc.toStdString()));
    QVERIFY(!r);
    QVERIFY2(QString::fromStdString(r.error().message).contains(field), r.error().message.c_str());
}

void TestTimingSummary::summaryOfMeasuredRequests()
{
    ServerTimingJoin join;
    join.format = TimingFormat::TrtllmPerf;
    join.method = TimingJoin::OrderAndTime;
    join.fit.valid = true;
    join.fit.offsetS = -2.75025;
    join.fit.drift = 180e-6;
    join.fit.boundMs = 0.042;
    join.matched = 11;
    join.missing = 1;
    join.extraEntries = 3;
    join.addProblem("1 request(s) have no TensorRT-LLM perf_metrics entry");
    std::vector<bool> include;
    for (int i = 0; i < 12; ++i) {
        join.requests.push_back(sample(std::uint64_t(i), i == 0 ? 1000.0 : double(i))); // 0: warm-up outlier
        include.push_back(i != 0);
    }
    join.requests[11][BreakdownPart::Prefill] = {}; // the request without an entry
    const ServerTimingSummary s = summarizeTiming(join, include);
    QCOMPARE(s.format, std::string("trtllm-perf"));
    QCOMPARE(s.join, std::string("order_and_time"));
    QCOMPARE(s.requests, 11);
    QCOMPARE(s.matched, 11);
    QCOMPARE(s.missing, 1);
    QCOMPARE(s.extraEntries, 3);
    QCOMPARE(s.problemCount, 1);
    QVERIFY(s.clockFitted);
    QCOMPARE(s.clockOffsetMs, -2750.25);
    QVERIFY(std::abs(s.clockDriftPpm - 180) < 1e-9);
    const BreakdownPartSummary &prefill = s[BreakdownPart::Prefill];
    QCOMPARE(prefill.n, 10); // requests 1…10: the warm-up one is left out, the last has none
    QCOMPARE(prefill.status, PartStatus::Measured);
    QCOMPARE(prefill.mean, 5.5);
    QCOMPARE(prefill.p50, 5.5);
    QCOMPARE(prefill.p90, 9.1); // linear between the 9th and 10th of 10
    QVERIFY(!prefill.aligned);
    QVERIFY(s[BreakdownPart::NetworkUp].aligned);
    QCOMPARE(s[BreakdownPart::Unattributed].status, PartStatus::Derived);
    QCOMPARE(s[BreakdownPart::Decode].n, 0);
    QCOMPARE(s[BreakdownPart::Decode].status, PartStatus::Unknown);
}

void TestTimingSummary::summaryRoundTrip()
{
    ServerTimingJoin join;
    join.format = TimingFormat::DynamoTrace;
    join.method = TimingJoin::ClientId;
    join.fit.valid = true;
    join.fit.offsetS = 1.5;
    join.fit.boundMs = 0.5;
    join.fit.consistent = false;
    join.requests = {sample(1, 3.0), sample(2, 4.0), sample(3, 8.0)};
    const ServerTimingSummary s = summarizeTiming(join, {true, true, true});
    const json j = s.toJson();
    QCOMPARE(j["parts"]["prefill"]["status"].get<std::string>(), std::string("measured"));
    QVERIFY(!j["parts"]["decode"].contains("p50")); // no values, no statistics
    auto back = ServerTimingSummary::fromJson(json::parse(j.dump()));
    QVERIFY2(back, back ? "" : back.error().message.c_str());
    QCOMPARE(back->toJson().dump(), j.dump());
    QCOMPARE(back->join, std::string("client_id"));
    QVERIFY(!back->clockConsistent);
    for (int i = 0; i < kBreakdownParts; ++i) {
        const BreakdownPartSummary &a = s.parts[size_t(i)], &b = back->parts[size_t(i)];
        QCOMPARE(b.n, a.n);
        QCOMPARE(b.status, a.status);
        QVERIFY(same(a.mean, b.mean) && same(a.p50, b.p50) && same(a.p90, b.p90) && same(a.p99, b.p99));
    }
}

void TestTimingSummary::summaryErrorsNameTheField()
{
    ServerTimingJoin join;
    join.requests = {sample(1, 3.0)};
    json j = summarizeTiming(join, {true}).toJson();
    json wrong = j;
    wrong["parts"]["prefill"]["p50"] = "fast";
    auto r = ServerTimingSummary::fromJson(wrong);
    QVERIFY(!r);
    QVERIFY2(r.error().message.find("server_timing.parts.prefill") != std::string::npos,
             r.error().message.c_str());
    wrong = j;
    wrong.erase("matched");
    r = ServerTimingSummary::fromJson(wrong);
    QVERIFY(!r);
    QVERIFY2(r.error().message.find("server_timing.matched") != std::string::npos, r.error().message.c_str());
}

void TestTimingSummary::summaryFromStoredBreakdowns()
{
    std::vector<RequestBreakdown> rows = {sample(1, 2.0), sample(2, 6.0)};
    rows[1].problem = "request r-2: no timing";
    rows[1].alignBoundMs = 0.08;
    const ServerTimingSummary s = summarizeBreakdowns("sglang", "same_response", rows);
    QCOMPARE(s.requests, 2);
    QCOMPARE(s.matched, 1);
    QCOMPARE(s.missing, 1);
    QCOMPARE(s[BreakdownPart::Prefill].mean, 4.0);
    QCOMPARE(s.clockBoundMs, 0.08); // the widest bound of the rows
    QVERIFY(!s.clockFitted);
}

QTEST_GUILESS_MAIN(TestTimingSummary)
#include "tst_timingsummary.moc"
