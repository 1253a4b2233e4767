// ShardSelector: the `--shard i/N` parser and the load split of ARCHITECTURE.md "Growing past one machine".
#include "core/campaign/shardselector.h"

#include <QTest>

using namespace Throughline;

class TestShardSelector : public QObject
{
    Q_OBJECT
private slots:
    void parseValid_data();
    void parseValid();
    void parseInvalid_data();
    void parseInvalid();
    void sharesAddUp();
    void smallConcurrencyGoesToFirstShards();
    void proportionalAddsUp();
    void rateSplits();
};

void TestShardSelector::parseValid_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("index");
    QTest::addColumn<int>("count");
    QTest::newRow("first of four") << u"0/4"_qs << 0 << 4;
    QTest::newRow("last of four") << u"3/4"_qs << 3 << 4;
    QTest::newRow("whole") << u"0/1"_qs << 0 << 1;
    QTest::newRow("leading zeros") << u"07/010"_qs << 7 << 10;
    QTest::newRow("max") << u"4095/4096"_qs << 4095 << 4096;
}

void TestShardSelector::parseValid()
{
    QFETCH(QString, text);
    QFETCH(int, index);
    QFETCH(int, count);
    const auto r = ShardSelector::parse(text.toStdString());
    QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
    QCOMPARE(r->index, index);
    QCOMPARE(r->count, count);
    QCOMPARE(ShardSelector::parse(r->toString())->index, index); // toString round trip
}

void TestShardSelector::parseInvalid_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("message");
    QTest::newRow("zero shards") << u"0/0"_qs << u"shard count must be 1…4096, got 0"_qs;
    QTest::newRow("index = count") << u"4/4"_qs
                                   << u"shard index 4 is out of range for 4 shards (0-based: 0…3)"_qs;
    QTest::newRow("index > count") << u"9/2"_qs << u"out of range for 2 shards"_qs;
    QTest::newRow("letters") << u"x/y"_qs << u"expected i/N with whole numbers"_qs;
    QTest::newRow("no slash") << u"3"_qs << u"expected i/N (0-based"_qs;
    QTest::newRow("negative") << u"-1/4"_qs << u"whole numbers"_qs;
    QTest::newRow("empty index") << u"/4"_qs << u"whole numbers"_qs;
    QTest::newRow("empty") << QString() << u"expected i/N"_qs;
    QTest::newRow("spaces") << u"1 /4"_qs << u"whole numbers"_qs;
    QTest::newRow("trailing") << u"1/4x"_qs << u"whole numbers"_qs;
    QTest::newRow("two slashes") << u"1/2/4"_qs << u"whole numbers"_qs;
    QTest::newRow("fraction") << u"0.5/4"_qs << u"whole numbers"_qs;
    QTest::newRow("too many") << u"0/5000"_qs << u"shard count must be 1…4096, got 5000"_qs;
    QTest::newRow("overflow") << u"0/99999999999999999999"_qs << u"whole numbers"_qs;
    QTest::newRow("unexpanded variable") << u"${JOB_COMPLETION_INDEX}/4"_qs << u"whole numbers"_qs;
}

void TestShardSelector::parseInvalid()
{
    QFETCH(QString, text);
    QFETCH(QString, message);
    const auto r = ShardSelector::parse(text.toStdString());
    QVERIFY(!r.ok());
    QCOMPARE(r.error().code, ErrorCode::InvalidInput);
    const QString got = QString::fromStdString(r.error().message);
    QVERIFY2(got.contains(message), qPrintable(got));
    QVERIFY2(got.contains(u"'"_qs + text + u"'"_qs), qPrintable(got)); // names the value it refused
}

// floor(C/N) + (i < C mod N): every unit goes to exactly one shard, shares differ by at most one.
void TestShardSelector::sharesAddUp()
{
    for (int n = 1; n <= 9; ++n) {
        for (int c = 0; c <= 70; ++c) {
            int sum = 0, lo = c, hi = 0;
            for (int i = 0; i < n; ++i) {
                const ShardSpec s{i, n};
                const int share = ShardSelector::share(c, s);
                QCOMPARE(ShardSelector::shareBefore(c, s), sum);
                sum += share;
                lo = std::min(lo, share);
                hi = std::max(hi, share);
            }
            QCOMPARE(sum, c);
            QVERIFY(hi - lo <= 1);
        }
    }
    QCOMPARE(ShardSelector::share(16, {0, 4}), 4);
    QCOMPARE(ShardSelector::share(10, {1, 4}), 3); // 10 = 3 + 3 + 2 + 2
    QCOMPARE(ShardSelector::share(10, {2, 4}), 2);
}

// ARCHITECTURE.md: points with C < N run on shards 0…C−1 only.
void TestShardSelector::smallConcurrencyGoesToFirstShards()
{
    for (int i = 0; i < 4; ++i)
        QCOMPARE(ShardSelector::share(3, {i, 4}), i < 3 ? 1 : 0);
    QCOMPARE(ShardSelector::share(1, {1, 2}), 0);
    QCOMPARE(ShardSelector::proportional(10, 1, {1, 2}), 0); // no concurrency share, no requests
}

void TestShardSelector::proportionalAddsUp()
{
    for (int n = 1; n <= 8; ++n) {
        for (int c : {1, 2, 3, 4, 7, 16, 33}) {
            for (int count : {0, 1, 5, 10, 16, 160, 1001}) {
                int sum = 0;
                for (int i = 0; i < n; ++i) {
                    const int part = ShardSelector::proportional(count, c, {i, n});
                    QVERIFY(part >= 0);
                    if (ShardSelector::share(c, {i, n}) == 0)
                        QCOMPARE(part, 0);
                    sum += part;
                }
                QCOMPARE(sum, count);
            }
        }
    }
    // 10 × C budgets split like the concurrency: 160 requests at C=16 over 2 shards = 80 + 80.
    QCOMPARE(ShardSelector::proportional(160, 16, {0, 2}), 80);
    // Large budgets do not overflow 32-bit intermediates.
    QCOMPARE(ShardSelector::proportional(2'000'000'000, 4, {3, 4}), 500'000'000);
}

void TestShardSelector::rateSplits()
{
    QCOMPARE(ShardSelector::rate(10.0, {0, 4}), 2.5);
    QCOMPARE(ShardSelector::rate(10.0, {0, 1}), 10.0);
}

QTEST_GUILESS_MAIN(TestShardSelector)
#include "tst_shardselector.moc"
