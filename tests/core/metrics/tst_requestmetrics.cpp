// Per-request metrics on hand-built records with hand-computed answers (ARCHITECTURE.md "Per request").
#include "core/metrics/requestmetrics.h"
#include "recordbuilder.h"

#include <QTest>

#include <cmath>
#include <limits>

using namespace Throughline;
using Throughline::Test::RecordBuilder;

Q_DECLARE_METATYPE(Throughline::RequestRecord)
Q_DECLARE_METATYPE(Throughline::TokenCountSource)

namespace {
constexpr double NaN = std::numeric_limits<double>::quiet_NaN();

bool same(double a, double b)
{
    return (std::isnan(a) && std::isnan(b)) || std::abs(a - b) < 1e-9;
}
} // namespace

class TestRequestMetrics : public QObject
{
    Q_OBJECT
private slots:
    void derived_data();
    void derived();
    void chunkGaps();
    void tokenizerHook();
    void tokensPerEvent();
    void errorKeys();
};

void TestRequestMetrics::derived_data()
{
    QTest::addColumn<RequestRecord>("record");
    QTest::addColumn<int>("contentEvents");
    QTest::addColumn<double>("ttft");
    QTest::addColumn<double>("ttftQ");
    QTest::addColumn<double>("e2e");
    QTest::addColumn<double>("tpot");
    QTest::addColumn<double>("tpotMlperf");
    QTest::addColumn<int>("nOut");
    QTest::addColumn<TokenCountSource>("nOutSource");
    QTest::addColumn<int>("nFirst");
    QTest::addColumn<bool>("nFirstApprox");
    QTest::addColumn<bool>("tpotUndefined");

    // sched 0, send 10, tokens 110/120/130/140, end 150, usage 4:
    // TTFT 100, TTFT_q 110, E2E 140, TPOT 30/3 = 10, MLPerf (150−110)/3.
    QTest::newRow("basic usage")
        << RecordBuilder().send(10, 0).content({110, 120, 130, 140}).end(150).usage(4).build() << 4 << 100.0
        << 110.0 << 140.0 << 10.0 << 40.0 / 3 << 4 << TokenCountSource::Usage << 1 << true << false;
    // N_out = 1: TPOT undefined (denominator 0), counted.
    QTest::newRow("n_out 1") << RecordBuilder().send(0).content({50}).end(60).usage(1).build() << 1 << 50.0
                             << 50.0 << 60.0 << NaN << NaN << 1 << TokenCountSource::Usage << 1 << true
                             << true;
    // Multi-token first chunk (per-chunk usage: 5 tokens), then 3 single tokens: TPOT = 30 / (8 − 5).
    QTest::newRow("multi-token first chunk") << RecordBuilder()
                                                    .send(0)
                                                    .contentTokens({{100, 5}, {110, 1}, {120, 1}, {130, 1}})
                                                    .end(140)
                                                    .usage(8)
                                                    .build()
                                             << 4 << 100.0 << 100.0 << 140.0 << 10.0 << 40.0 / 3 << 8
                                             << TokenCountSource::Usage << 5 << false << false;
    // Role-only chunk first, reasoning content, content, finish, usage-only, [DONE]: only the two
    // content events count; no usage → N_out from events (approximate): TPOT = 20 / (2 − 1).
    QTest::newRow("role-only and reasoning") << RecordBuilder()
                                                    .send(0)
                                                    .event(50, StreamEvent::Kind::RoleOnly)
                                                    .content({100})
                                                    .event(105, StreamEvent::Kind::Other)
                                                    .content({120})
                                                    .event(125, StreamEvent::Kind::Finish)
                                                    .event(130, StreamEvent::Kind::Usage)
                                                    .event(131, StreamEvent::Kind::Done)
                                                    .end(132)
                                                    .build()
                                             << 2 << 100.0 << 100.0 << 132.0 << 20.0 << 32.0 << 2
                                             << TokenCountSource::EventCount << 1 << true << false;
    // Role-only chunk only (server sent nothing else): no TTFT, no TPOT.
    QTest::newRow("role only")
        << RecordBuilder().send(0).event(50, StreamEvent::Kind::RoleOnly).end(60).build() << 0 << NaN << NaN
        << 60.0 << NaN << NaN << 0 << TokenCountSource::EventCount << 1 << true << false;
    // Failed before first token: E2E still measured, everything token-based undefined.
    QTest::newRow("failed") << RecordBuilder().send(5).end(25).fail(ErrorClass::HttpStatus, 503).build() << 0
                            << NaN << NaN << 20.0 << NaN << NaN << 0 << TokenCountSource::EventCount << 1
                            << true << false;
    // Engine already tokenizer-counted the text (no usage): N_out 7 → TPOT 30/6.
    QTest::newRow("engine tokenizer count")
        << RecordBuilder().send(0).content({100, 110, 120, 130}).end(130).engineTokenizerCount(7).build() << 4
        << 100.0 << 100.0 << 130.0 << 5.0 << 5.0 << 7 << TokenCountSource::Tokenizer << 1 << true << false;
    // Client queueing: scheduled at 0, sent at 40 → TTFT 60, TTFT_q 100.
    QTest::newRow("queued") << RecordBuilder().send(40, 0).content({100, 200}).end(200).usage(2).build() << 2
                            << 60.0 << 100.0 << 160.0 << 100.0 << 100.0 << 2 << TokenCountSource::Usage << 1
                            << true << false;
}

void TestRequestMetrics::derived()
{
    QFETCH(RequestRecord, record);
    QFETCH(int, contentEvents);
    QFETCH(double, ttft);
    QFETCH(double, ttftQ);
    QFETCH(double, e2e);
    QFETCH(double, tpot);
    QFETCH(double, tpotMlperf);
    QFETCH(int, nOut);
    QFETCH(TokenCountSource, nOutSource);
    QFETCH(int, nFirst);
    QFETCH(bool, nFirstApprox);
    QFETCH(bool, tpotUndefined);

    const RequestMetrics m = computeRequestMetrics(record);
    QCOMPARE(m.ok, record.ok());
    QCOMPARE(m.contentEvents, contentEvents);
    QVERIFY2(same(m.ttftMs, ttft), qPrintable(QString::number(m.ttftMs)));
    QVERIFY2(same(m.ttftQMs, ttftQ), qPrintable(QString::number(m.ttftQMs)));
    QVERIFY2(same(m.e2eMs, e2e), qPrintable(QString::number(m.e2eMs)));
    QVERIFY2(same(m.tpotMs, tpot), qPrintable(QString::number(m.tpotMs)));
    QVERIFY2(same(m.tpotMlperfMs, tpotMlperf), qPrintable(QString::number(m.tpotMlperfMs)));
    QVERIFY(same(m.interactivityTpsUser, std::isnan(tpot) ? NaN : 1000.0 / tpot));
    QCOMPARE(m.nOut, nOut);
    QCOMPARE(m.nOutSource, nOutSource);
    QCOMPARE(m.nOutApproximate, nOutSource == TokenCountSource::EventCount);
    QCOMPARE(m.nFirst, nFirst);
    QCOMPARE(m.nFirstApproximate, nFirstApprox);
    QCOMPARE(m.tpotUndefined, tpotUndefined);
}

void TestRequestMetrics::chunkGaps()
{
    const RequestRecord r = RecordBuilder()
                                .send(0)
                                .event(5, StreamEvent::Kind::RoleOnly)
                                .content({100, 103})
                                .event(104, StreamEvent::Kind::Usage)
                                .content({110, 130})
                                .end(131)
                                .build();
    const RequestMetrics m = computeRequestMetrics(r);
    QCOMPARE(m.chunkGapsMs, (std::vector<double>{3, 7, 20}));
    QCOMPARE(m.tFirstTokenNs, Test::ms(100));
    QCOMPARE(m.tLastTokenNs, Test::ms(130));
}

void TestRequestMetrics::tokenizerHook()
{
    const RequestRecord r = RecordBuilder().send(0).content({100, 110, 120, 130}).end(160).build();
    int calls = 0;
    const RequestMetrics m = computeRequestMetrics(r, [&](const RequestRecord &) {
        ++calls;
        return 7;
    });
    QCOMPARE(calls, 1);
    QCOMPARE(m.nOut, 7);
    QCOMPARE(m.nOutSource, TokenCountSource::Tokenizer);
    QCOMPARE(m.tpotMs, 5.0);        // 30 / 6
    QCOMPARE(m.tpotMlperfMs, 10.0); // (160 − 100) / 6
    // Usage wins over the tokenizer for N_out; the MLPerf variant still uses the tokenizer count.
    const RequestRecord u = RecordBuilder().send(0).content({100, 110, 120, 130}).end(160).usage(4).build();
    const RequestMetrics mu = computeRequestMetrics(u, [](const RequestRecord &) { return 7; });
    QCOMPARE(mu.nOut, 4);
    QCOMPARE(mu.nOutSource, TokenCountSource::Usage);
    QCOMPARE(mu.tpotMs, 10.0);
    QCOMPARE(mu.tpotMlperfMs, 10.0);
    // A hook that cannot count (-1) falls through to event counting.
    const RequestMetrics me = computeRequestMetrics(r, [](const RequestRecord &) { return -1; });
    QCOMPARE(me.nOutSource, TokenCountSource::EventCount);
    QCOMPARE(me.nOut, 4);
}

void TestRequestMetrics::tokensPerEvent()
{
    const RequestRecord known =
        RecordBuilder().send(0).contentTokens({{100, 3}, {110, 1}}).end(120).usage(4).build();
    QCOMPARE(tokensPerContentEvent(known, 4), (std::vector<double>{3, 1}));
    const RequestRecord unknown =
        RecordBuilder().send(0).content({100, 110, 120, 130}).end(130).usage(10).build();
    QCOMPARE(tokensPerContentEvent(unknown, 10), (std::vector<double>{2.5, 2.5, 2.5, 2.5}));
    const RequestRecord none = RecordBuilder().send(0).end(10).build();
    QVERIFY(tokensPerContentEvent(none, 0).empty());
}

void TestRequestMetrics::errorKeys()
{
    QCOMPARE(errorClassKey(ErrorClass::HttpStatus), std::string_view("http_status"));
    QCOMPARE(errorClassKey(ErrorClass::HarnessCancelled), std::string_view("harness_cancelled"));
    QCOMPARE(tokenCountSourceKey(TokenCountSource::EventCount), std::string_view("event_count"));
}

QTEST_GUILESS_MAIN(TestRequestMetrics)
#include "tst_requestmetrics.moc"
