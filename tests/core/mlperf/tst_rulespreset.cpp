// The rules presets: the built-in files carry the CSV's values (rule ids beside each), v0.7 differs where the
// reference notes it, and bad preset files fail with file:line:column and the field.
#include "core/mlperf/rulespreset.h"

#include <QFile>
#include <QRegularExpression>
#include <QTest>

#include <nlohmann/json.hpp>

using namespace Throughline;
using namespace Throughline::Mlperf;

namespace {

std::string builtinText(const char *id)
{
    QFile f(QStringLiteral(":/presets/") + QString::fromLatin1(id) + QStringLiteral(".json"));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll().toStdString();
}

// The v1.0 file with one member replaced (JSON pointer → value), re-serialised with indentation so errors
// have lines to point at.
std::string mutated(const std::string &pointer, const nlohmann::json &value)
{
    auto j = nlohmann::json::parse(builtinText("mlperf-endpoints-1.0"));
    j[nlohmann::json::json_pointer(pointer)] = value;
    return j.dump(2);
}

} // namespace

class TestRulesPreset : public QObject
{
    Q_OBJECT
private slots:
    void v10CarriesTheRules()
    {
        const auto p = loadRulesPreset("mlperf-endpoints-1.0");
        QVERIFY2(p.ok(), p.ok() ? "" : p.error().message.c_str());
        QCOMPARE(p->id, std::string("mlperf-endpoints-1.0"));
        QCOMPARE(p->regions, (RegionRules{1, 32, 10})); // EPR-11, EPR-19 (ceil(1.10 × C_max))
        QCOMPARE(p->cMaxJustifyAtOrBelow, 33);          // EPR-20
        QCOMPARE(p->minPointsWithDedicatedOffline, 8);  // EPR-08
        QCOMPARE(p->minPointsWithElectedOffline, 7);    // EPR-09
        QCOMPARE(p->maxPoints, 32);                     // EPR-10
        QVERIFY(p->offlinePoint);
        QCOMPARE(p->minDurationFor(Region::UltraLow), 600.0); // EPR-28, VAL-06
        for (Region r : {Region::Low, Region::Medium, Region::High, Region::Margin})
            QCOMPARE(p->minDurationFor(r), 1200.0); // EPR-29, VAL-06
        QCOMPARE(p->minDurationFor(Region::OutOfRange), 0.0);
        QCOMPARE(p->minDatasetPasses, 1);                                  // EPR-36
        QVERIFY(p->wholeDatasetMultiples);                                 // EPR-37
        QCOMPARE(p->maxWarmupS, 24 * 3600.0);                              // EPR-34
        QCOMPARE(p->datasetSizes.at("legacy_mlperf_deepseek_r1"), 4388LL); // VAL-07
        QCOMPARE(p->datasetSizes.at("mlperf_gpt_oss_performance"), 6396LL);
        QVERIFY(p->steadyState);
        QCOMPARE(p->steadyState->minSuperPasses, 4); // EPR-30
        // EPR-31: TPOT P50/P90 gate (the definitions table and the reference detector), TTFT is diagnostic.
        QCOMPARE(p->steadyState->gatingMetrics, (std::vector<std::string>{"tpot_p50", "tpot_p90"}));
        QCOMPARE(p->steadyState->diagnosticMetrics, (std::vector<std::string>{"ttft_p50", "ttft_p90"}));
        QCOMPARE(p->ttftPercentile, 90); // EPR-03
        QVERIFY(p->offline);
        QCOMPARE(p->offline->minTpsRatioToCMax, 0.98);                    // EPR-23
        QVERIFY(p->offline->minConcurrencyIsCMax);                        // EPR-24
        QCOMPARE(p->earlyStoppingConfidence, 0.99);                       // CLI-01
        QCOMPARE(p->earlyStoppingMinSamplesFor("90.0").value_or(0), 64);  // CLI-02
        QCOMPARE(p->earlyStoppingMinSamplesFor("99.0").value_or(0), 662); // CLI-02
        QCOMPARE(p->earlyStoppingMinSamplesFor("50.0").value_or(0), 11);  // CLI-02
        QVERIFY(!p->earlyStoppingMinSamplesFor("25.0"));                  // CLI-03: only ≥ p50
        QCOMPARE(p->metricRelTolerance, 0.01);                            // VAL-05
    }

    void v07DiffersWhereTheReferenceSays()
    {
        const auto v07 = loadRulesPreset("mlperf-endpoints-0.7");
        const auto v10 = loadRulesPreset("mlperf-endpoints-1.0");
        QVERIFY(v07.ok() && v10.ok());
        QCOMPARE(v07->ttftPercentile, 95); // v0.7 TTFT P95
        QVERIFY(!v07->offlinePoint);       // no Offline point
        QVERIFY(!v07->offline);
        QCOMPARE(v07->minPointsWithDedicatedOffline, 7); // 7-point minimum
        QVERIFY(!v07->steadyState);                      // §4.4 is new in v1.0
        QCOMPARE(v07->regions, v10->regions);
        QCOMPARE(v07->minDurationS, v10->minDurationS);
    }

    void builtinsAreListedAndUnknownIdsNamed()
    {
        for (const auto &id : builtinRulesPresetIds())
            QVERIFY2(loadRulesPreset(id).ok(), id.c_str());
        const auto missing = loadRulesPreset("mlperf-endpoints-9.9");
        QVERIFY(!missing.ok());
        QCOMPARE(missing.error().code, ErrorCode::NotFound);
        QVERIFY(missing.error().message.find("mlperf-endpoints-1.0") != std::string::npos);
    }

    void badFiles_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected"); // a pattern of the message: where and which field
        QTest::newRow("syntax") << QStringLiteral("{\n  \"schema\": ,\n}")
                                << QStringLiteral("^x\\.json:2:\\d+: JSON syntax error");
        QTest::newRow("schema") << QString::fromStdString(mutated("/schema", "throughline.mlperf-rules/2"))
                                << QStringLiteral("^x\\.json:\\d+:\\d+: schema: expected");
        QTest::newRow("unknown field") << QString::fromStdString(mutated("/points/min", 3))
                                       << QStringLiteral("^x\\.json:\\d+:\\d+: points\\.min: unknown field");
        QTest::newRow("wrong type") << QString::fromStdString(mutated("/points/max", "32"))
                                    << QStringLiteral(": points.max: expected an integer");
        QTest::newRow("range") << QString::fromStdString(mutated("/offline/min_tps_ratio_to_c_max", 1.5))
                               << QStringLiteral(": offline.min_tps_ratio_to_c_max: must be between 0 and 1");
        QTest::newRow("max below min")
            << QString::fromStdString(mutated("/points/max", 6)) << QStringLiteral(": points.max: is below");
        QTest::newRow("offline mismatch") << QString::fromStdString(mutated("/offline", nullptr))
                                          << QStringLiteral(": offline: must be an object exactly when");
        QTest::newRow("gating metric")
            << QString::fromStdString(mutated("/steady_state/gating_metrics/1", "e2e"))
            << QStringLiteral(": steady_state.gating_metrics.1: expected one of");
        QTest::newRow("diagnostic metric")
            << QString::fromStdString(mutated("/steady_state/diagnostic_metrics/0", "itl_p50"))
            << QStringLiteral(": steady_state.diagnostic_metrics.0: expected one of");
        auto noDurations = nlohmann::json::parse(builtinText("mlperf-endpoints-1.0"));
        noDurations["min_duration_s"].erase("high");
        QTest::newRow("missing") << QString::fromStdString(noDurations.dump(2))
                                 << QStringLiteral(": min_duration_s.high: missing");
    }

    void badFiles()
    {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        const auto p = parseRulesPreset(text.toStdString(), "x.json");
        QVERIFY(!p.ok());
        QCOMPARE(p.error().code, ErrorCode::InvalidInput);
        QVERIFY2(QString::fromStdString(p.error().message).contains(QRegularExpression(expected)),
                 p.error().message.c_str());
    }
};

QTEST_GUILESS_MAIN(TestRulesPreset)
#include "tst_rulespreset.moc"
