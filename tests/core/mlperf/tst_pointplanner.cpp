// Point planning under the mlperf-endpoints presets, data-driven over the rules' Appendix B pairs and the
// generated (C_min, C_max) table of tst_regions (tests/data/mlperf/regions_generated.csv): every plan has the
// requested count within the preset's bounds (≥ 8 with a dedicated Offline point, ≥ 7 when C_max is elected,
// ≤ 32), C_min as its Ultra Low point, every region covered, C_max measured, the preset's durations; and
// each impossible request is refused naming its rule.
#include "core/mlperf/pointplanner.h"

#include <QFile>
#include <QTest>

#include <set>

using namespace Throughline;
using namespace Throughline::Mlperf;

namespace {

const RulesPreset &v10()
{
    static const RulesPreset p = loadRulesPreset("mlperf-endpoints-1.0").value();
    return p;
}

bool mentions(const Result<PointPlan> &r, const char *rule)
{
    return !r.ok() && r.error().message.find(rule) != std::string::npos;
}

} // namespace

Q_DECLARE_METATYPE(Throughline::Mlperf::OfflineMode)

class TestPointPlanner : public QObject
{
    Q_OBJECT
private slots:
    void plans_data()
    {
        QTest::addColumn<int>("cMin");
        QTest::addColumn<int>("cMax");
        QTest::addColumn<OfflineMode>("offline");
        QTest::addColumn<int>("points");                                // 0 = the minimum
        std::vector<std::pair<int, int>> pairs{{16, 1024}, {32, 8192}}; // Appendix B (EPR-21/22)
        QFile f(QStringLiteral(THROUGHLINE_TEST_DATA_DIR "/mlperf/regions_generated.csv"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        f.readLine();
        while (!f.atEnd()) {
            const QList<QByteArray> c = f.readLine().trimmed().split(',');
            if (c.size() == 10 && !(c[0] == "32" && c[1] == "33")) // 32/33: Medium is empty (see refusals)
                pairs.emplace_back(c[0].toInt(), c[1].toInt());
        }
        QVERIFY(pairs.size() >= 22);
        for (const auto &[cMin, cMax] : pairs) {
            for (int points : {0, 12, 32}) {
                const auto name = QStringLiteral("%1/%2 %3").arg(cMin).arg(cMax).arg(points);
                QTest::newRow(qPrintable(name + QStringLiteral(" dedicated")))
                    << cMin << cMax << OfflineMode::Dedicated << points;
                QTest::newRow(qPrintable(name + QStringLiteral(" elected")))
                    << cMin << cMax << OfflineMode::Elected << points;
            }
        }
    }

    void plans()
    {
        QFETCH(int, cMin);
        QFETCH(int, cMax);
        QFETCH(OfflineMode, offline);
        QFETCH(int, points);
        const int dataset = std::max(cMax, 4388); // legacy_mlperf_deepseek_r1's size (VAL-07) or C_max
        const auto plan = planPoints({cMin, cMax, points, offline, dataset}, v10());
        if (!plan.ok() && points > 0) {
            // Small curves cannot hold 32 distinct concurrencies in Low … High: refused, with the reason.
            const auto b = regionBounds(cMin, cMax, v10().regions).value();
            const int capacity = 1 + b.low.size() + b.medium.size() + b.high.size();
            QVERIFY2(capacity < points - (offline == OfflineMode::Dedicated ? 1 : 0),
                     plan.error().message.c_str());
            QVERIFY(plan.error().message.find("distinct concurrencies") != std::string::npos);
            return;
        }
        QVERIFY2(plan.ok(), plan.ok() ? "" : plan.error().message.c_str());
        const int want = points > 0 ? points : (offline == OfflineMode::Dedicated ? 8 : 7); // EPR-08 / EPR-09
        QCOMPARE(int(plan->points.size()), want);
        QVERIFY(int(plan->points.size()) <= 32); // EPR-10

        std::vector<PlannedPoint> fixed = plan->points;
        if (offline == OfflineMode::Dedicated) {
            QCOMPARE(fixed.back().role, PlannedPoint::Role::Offline);
            QCOMPARE(fixed.back().concurrency, dataset); // EPR-25: the dataset's cardinality
            QVERIFY(fixed.back().concurrency >= cMax);   // EPR-24
            fixed.pop_back();
        }
        QCOMPARE(fixed.front().concurrency, cMin);
        QCOMPARE(fixed.front().role, PlannedPoint::Role::UltraLow);
        QCOMPARE(fixed.front().minDurationS, 600.0); // EPR-28
        QCOMPARE(fixed.back().concurrency, cMax);
        std::set<Region> covered;
        for (std::size_t i = 0; i < fixed.size(); ++i) {
            const PlannedPoint &p = fixed[i];
            if (i > 0)
                QVERIFY(p.concurrency > fixed[i - 1].concurrency); // ascending, distinct
            QVERIFY(p.role != PlannedPoint::Role::Offline);
            QCOMPARE(p.region, plan->bounds.regionOf(p.concurrency));
            QVERIFY(p.concurrency >= cMin && p.concurrency <= cMax); // the planner never needs the margin
            if (i > 0)
                QCOMPARE(p.minDurationS, 1200.0); // EPR-29
            covered.insert(p.region);
        }
        for (Region r : {Region::UltraLow, Region::Low, Region::Medium, Region::High}) // EPR-11, 15–17
            QVERIFY2(covered.count(r), regionKey(r).data());
    }

    void spreadsChoicePointsOverTheRegions()
    {
        // 16 / 1024 with 12 points (dedicated Offline): 11 fixed = C_min + 10 spread High, Medium, Low
        // round-robin (4, 3, 3), High ending at C_max.
        const auto plan = planPoints({16, 1024, 12, OfflineMode::Dedicated, 4388}, v10());
        QVERIFY(plan.ok());
        std::map<Region, int> n;
        for (const auto &p : plan->points)
            ++n[p.region];
        QCOMPARE(n[Region::UltraLow], 1);
        QCOMPARE(n[Region::Low], 3);
        QCOMPARE(n[Region::Medium], 3);
        QCOMPARE(n[Region::High], 4);
        QCOMPARE(n[Region::OutOfRange], 1); // the Offline point
        int mandatory = 0;
        for (const auto &p : plan->points)
            mandatory += p.role == PlannedPoint::Role::Mandatory;
        QCOMPARE(mandatory, 3); // one per Low / Medium / High
    }

    void refusals()
    {
        QVERIFY(mentions(planPoints({16, 1024, 7, OfflineMode::Dedicated, 4388}, v10()), "EPR-08"));
        QVERIFY(mentions(planPoints({16, 1024, 6, OfflineMode::Elected, 4388}, v10()), "EPR-09"));
        QVERIFY(mentions(planPoints({16, 1024, 33, OfflineMode::Dedicated, 4388}, v10()), "EPR-10"));
        QVERIFY(mentions(planPoints({33, 1024, 0, OfflineMode::Dedicated, 4388}, v10()), "EPR-12"));
        QVERIFY(mentions(planPoints({16, 32, 0, OfflineMode::Dedicated, 4388}, v10()), "EPR-13"));
        QVERIFY(mentions(planPoints({32, 33, 0, OfflineMode::Elected, 4388}, v10()), "EPR-16"));
        QVERIFY(mentions(planPoints({16, 8192, 0, OfflineMode::Dedicated, 4388}, v10()), "EPR-24"));
        QVERIFY(mentions(planPoints({16, 1024, 0, OfflineMode::Dedicated, 0}, v10()), "EPR-25"));
        QVERIFY(mentions(planPoints({16, 1024, 0, OfflineMode::None, 4388}, v10()), "EPR-26"));
        // C_min 32 / C_max 40: Low 33–34, Medium 35–36, High 37–40 hold 8 concurrencies, C_min one more.
        QVERIFY(planPoints({32, 40, 10, OfflineMode::Dedicated, 4388}, v10()).ok());
        QVERIFY(!planPoints({32, 40, 11, OfflineMode::Dedicated, 4388}, v10()).ok());
    }

    void v07HasNoOfflinePoint()
    {
        const auto v07 = loadRulesPreset("mlperf-endpoints-0.7").value();
        QVERIFY(!planPoints({16, 1024, 0, OfflineMode::Dedicated, 4388}, v07).ok());
        const auto plan = planPoints({16, 1024, 0, OfflineMode::None, 0}, v07);
        QVERIFY(plan.ok());
        QCOMPARE(plan->points.size(), std::size_t(7));
        for (const auto &p : plan->points)
            QVERIFY(p.role != PlannedPoint::Role::Offline);
    }
};

QTEST_GUILESS_MAIN(TestPointPlanner)
#include "tst_pointplanner.moc"
