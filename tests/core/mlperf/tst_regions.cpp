// Region bounds (rules §5.4): the rules' Appendix B rows, generated (C_min, C_max) cases whose expected
// values come from the rules' formula in Python (tests/data/mlperf/gen_regions.py, Python's half-to-even
// round), half-to-even rounding itself, region membership and the C_min / C_max preconditions.
//
// Appendix B, not the §5.4 worked Example C: for C_min 16 / C_max 1024 the example's text says Medium 27–116
// and High 117–1024, one off against Appendix B (27–117, 118–1024) and against the formula
// (16 + 2^(2·log2(1008)/3) = 116.6 → 117). We follow Appendix B (../shared/data/reference/
// mlperf_endpoints_rules.md, EPR-21).
#include "core/mlperf/regions.h"

#include <QFile>
#include <QTest>

#include <array>

using namespace Throughline;
using namespace Throughline::Mlperf;

Q_DECLARE_METATYPE(Throughline::Mlperf::RegionBounds)

namespace {

// The v1.0 (and v0.7) values; tst_mlperfpreset checks that the preset file carries the same.
const RegionRules kRules{1, 32, 10};

RegionBounds expected(int cMin, int cMax, std::array<int, 8> r)
{
    RegionBounds b;
    b.cMin = cMin;
    b.cMax = cMax;
    b.ultraLow = {1, 32};
    b.low = {r[0], r[1]};
    b.medium = {r[2], r[3]};
    b.high = {r[4], r[5]};
    b.margin = {r[6], r[7]};
    return b;
}

} // namespace

class TestRegions : public QObject
{
    Q_OBJECT
private slots:
    void bounds_data()
    {
        QTest::addColumn<int>("cMin");
        QTest::addColumn<int>("cMax");
        QTest::addColumn<RegionBounds>("want");
        // EPR-21 / EPR-22 (rules Appendix B).
        QTest::newRow("Appendix B 16/1024")
            << 16 << 1024 << expected(16, 1024, {17, 26, 27, 117, 118, 1024, 1025, 1127});
        QTest::newRow("Appendix B 32/8192")
            << 32 << 8192 << expected(32, 8192, {33, 52, 53, 437, 438, 8192, 8193, 9012});
        QFile f(QStringLiteral(THROUGHLINE_TEST_DATA_DIR "/mlperf/regions_generated.csv"));
        QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(f.fileName()));
        f.readLine(); // header
        int rows = 0;
        while (!f.atEnd()) {
            const QList<QByteArray> c = f.readLine().trimmed().split(',');
            if (c.size() != 10)
                continue;
            std::array<int, 8> r{};
            for (int i = 0; i < 8; ++i)
                r[i] = c[i + 2].toInt();
            const int cMin = c[0].toInt(), cMax = c[1].toInt();
            QTest::newRow(qPrintable(QStringLiteral("generated %1/%2").arg(cMin).arg(cMax)))
                << cMin << cMax << expected(cMin, cMax, r);
            ++rows;
        }
        QVERIFY2(rows >= 20, "the generated table has fewer than 20 cases");
    }

    void bounds()
    {
        QFETCH(int, cMin);
        QFETCH(int, cMax);
        QFETCH(RegionBounds, want);
        const auto got = regionBounds(cMin, cMax, kRules);
        QVERIFY2(got.ok(), got.ok() ? "" : got.error().message.c_str());
        QCOMPARE(got->low, want.low);
        QCOMPARE(got->medium, want.medium);
        QCOMPARE(got->high, want.high);
        QCOMPARE(got->margin, want.margin);
        QCOMPARE(*got, want);
    }

    void halfToEven_data()
    {
        QTest::addColumn<double>("x");
        QTest::addColumn<long long>("want");
        QTest::newRow("0.5") << 0.5 << 0LL;
        QTest::newRow("1.5") << 1.5 << 2LL;
        QTest::newRow("2.5") << 2.5 << 2LL;
        QTest::newRow("3.5") << 3.5 << 4LL;
        QTest::newRow("116.5") << 116.5 << 116LL;
        QTest::newRow("117.5") << 117.5 << 118LL;
        QTest::newRow("116.6") << 116.6 << 117LL;
        QTest::newRow("26.03") << 26.03 << 26LL;
        QTest::newRow("just below a tie") << 2.4999999999999996 << 2LL;
        QTest::newRow("just above a tie") << 2.5000000000000004 << 3LL;
    }

    void halfToEven()
    {
        QFETCH(double, x);
        QFETCH(long long, want);
        QCOMPARE(roundHalfToEven(x), want);
    }

    void membership()
    {
        const auto b = regionBounds(16, 1024, kRules);
        QVERIFY(b.ok());
        QCOMPARE(b->regionOf(16), Region::UltraLow); // C_min is always the Ultra Low point
        QCOMPARE(b->regionOf(20), Region::Low);      // also inside 1 … 32: counts for both
        QVERIFY(b->ultraLow.contains(20));
        QCOMPARE(b->regionOf(26), Region::Low);
        QCOMPARE(b->regionOf(27), Region::Medium);
        QCOMPARE(b->regionOf(117), Region::Medium);
        QCOMPARE(b->regionOf(118), Region::High);
        QCOMPARE(b->regionOf(1024), Region::High);
        QCOMPARE(b->regionOf(1127), Region::Margin);
        QCOMPARE(b->regionOf(1128), Region::OutOfRange);
        QCOMPARE(regionKey(b->regionOf(1127)), std::string_view("margin"));
        QCOMPARE(b->range(Region::Medium).size(), 91);
    }

    void exactMargin()
    {
        // ceil(1.1 × 100) is 110; the float product 110.00000000000001 would give 111.
        const auto b = regionBounds(1, 100, kRules);
        QVERIFY(b.ok());
        QCOMPARE(b->margin.hi, 110);
    }

    void preconditions()
    {
        const auto lowCmax = regionBounds(1, 32, kRules);
        QVERIFY(!lowCmax.ok());
        QVERIFY(lowCmax.error().message.find("EPR-13") != std::string::npos);
        const auto bigCmin = regionBounds(33, 1024, kRules);
        QVERIFY(!bigCmin.ok());
        QVERIFY(bigCmin.error().message.find("EPR-12") != std::string::npos);
        QVERIFY(!regionBounds(0, 1024, kRules).ok());
    }
};

QTEST_GUILESS_MAIN(TestRegions)
#include "tst_regions.moc"
