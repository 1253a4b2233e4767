// `throughline-cli plan` end to end: a real demo run on the built-in simulator (one H200, Chat, C = 4 and 16)
// recorded into a history file, then plan against it. The expected figures are recomputed here from the run's
// own results.json: best point = the highest output_tps meeting TTFT p90 ≤ 2000 ms and 1000 ÷ TPOT p90 ≥ 20;
// replicas = ceil(500,000 × 1.1 ÷ its tok/s); $ per 1M = 1 GPU × 3.50 $/h (H200 on_demand, Nebius) ÷
// (tok/s × 3,600) × 1e6; kWh per 1M = 1.37 kW (all-in) ÷ (tok/s × 3,600) × 1e6.
#include "app/clitestprocess.h"
#include "common/wakeprobe.h"
#include "core/campaign/catalog.h"
#include "core/capacity/whatif.h"
#include "core/sim/whatifcurve.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

class TestCliPlan : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void planMatchesTheRunsOwnNumbers();
    void bundleAndPriceKind();
    void tierNoPointMeets();
    void badInputNamesTheField();
    void whatIfAgreesWithTheEngineMeasuredRun();
    void reportWithCapacitySection();

private:
    using Run = CliRun;
    Run run(const QStringList &args);

    QTemporaryDir m_dir;
    QString m_uuid, m_out;
    QJsonArray m_points;
    double m_wakeP99Ms = 0; // how late an idle thread woke while the run was measured (wakeprobe.h)
};

TestCliPlan::Run TestCliPlan::run(const QStringList &args)
{
    return runCli(m_dir.filePath(u"history.sqlite"_qs), args, 90000);
}

void TestCliPlan::initTestCase()
{
    QVERIFY(m_dir.isValid());
    // The demo campaign, one phase, enough requests per point for TTFT/TPOT p90 (n ≥ 100).
    QFile demo(QStringLiteral(THROUGHLINE_SOURCE_DIR "/resources/campaigns/demo.json"));
    QVERIFY(demo.open(QIODevice::ReadOnly));
    QJsonObject c = QJsonDocument::fromJson(demo.readAll()).object();
    c[u"name"_qs] = u"Plan test"_qs;
    c[u"phases"_qs] = QJsonArray{QJsonObject{{u"preset"_qs, u"Chat"_qs}}};
    QJsonObject plan = c[u"plan"_qs].toObject();
    plan[u"concurrencies"_qs] = QJsonArray{4, 16};
    plan[u"request_multiplier"_qs] = 30;
    c[u"plan"_qs] = plan;
    // Time scale 10, not the demo's 20: the client's and the simulator's own wake-ups count twice as little
    // in model time, so the measured run is closer to the scheduler's virtual clock.
    QJsonArray endpoints = c[u"endpoints"_qs].toArray();
    QJsonObject sim = endpoints[0].toObject();
    QJsonObject simOptions = sim[u"sim"_qs].toObject();
    simOptions[u"time_scale"_qs] = 10;
    sim[u"sim"_qs] = simOptions;
    endpoints[0] = sim;
    c[u"endpoints"_qs] = endpoints;
    const QString campaign = m_dir.filePath(u"plan.json"_qs);
    QFile f(campaign);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QJsonDocument(c).toJson());
    f.close();
    m_out = m_dir.filePath(u"out"_qs);
    Throughline::TestFixture::WakeProbe probe;
    const Run r = run({u"run"_qs, campaign, u"--out"_qs, m_out});
    m_wakeP99Ms = probe.stopP99Ms();
    QVERIFY2(r.code == 0, qPrintable(QString::number(r.code) + u"\n"_qs + r.out + r.err));
    const qsizetype at = r.out.indexOf(u"recorded run "_qs);
    QVERIFY2(at >= 0, qPrintable(r.out));
    m_uuid = r.out.mid(at + 13, 36);
    QFile results(m_out + u"/results.json"_qs);
    QVERIFY(results.open(QIODevice::ReadOnly));
    m_points = QJsonDocument::fromJson(results.readAll())
                   .object()[u"scenarios"_qs]
                   .toArray()
                   .first()[u"points"_qs]
                   .toArray();
    QCOMPARE(m_points.size(), 2);
}

void TestCliPlan::planMatchesTheRunsOwnNumbers()
{
    double bestTps = 0;
    int bestConcurrency = 0;
    for (const QJsonValue &p : m_points) {
        const QJsonObject m = p[u"metrics"_qs].toObject();
        const double ttft = m[u"ttft_ms"_qs][u"p90"_qs].toDouble(1e9);
        const double tpot = m[u"tpot_ms"_qs][u"p90"_qs].toDouble(1e9);
        const double tps = m[u"output_tps"_qs].toDouble();
        if (p[u"validity"_qs][u"valid"_qs].toBool() && ttft <= 2000 && 1000.0 / tpot >= 20 && tps > bestTps) {
            bestTps = tps;
            bestConcurrency = p[u"load"_qs][u"concurrency"_qs].toInt();
        }
    }
    QVERIFY2(bestTps > 0, "no point of the demo run meets the tier: the simulator changed?");

    const Run r = run({u"--json"_qs, u"plan"_qs, m_uuid.left(8), u"--demand"_qs, u"tps=500000"_qs,
                       u"--tier"_qs, u"ttft_p90<=2000,tps_user>=20"_qs, u"--headroom"_qs, u"10"_qs});
    QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
    const QJsonObject j = QJsonDocument::fromJson(r.out.toUtf8()).object();
    const QJsonArray ranked = j[u"ranked"_qs].toArray();
    QCOMPARE(ranked.size(), 1);
    const QJsonObject d = ranked.first().toObject();
    QCOMPARE(d[u"point"_qs][u"concurrency"_qs].toInt(), bestConcurrency);
    QCOMPARE(d[u"point"_qs][u"run"_qs].toString(), m_uuid);
    QCOMPARE(d[u"point"_qs][u"origin"_qs].toString(), u"measured_simulator"_qs);
    QCOMPARE(d[u"deployment"_qs][u"gpu"_qs].toString(), u"H200"_qs);
    QCOMPARE(d[u"replicas"_qs].toInt(), int(std::ceil(500000 * 1.1 / bestTps)));
    QCOMPARE(d[u"gpus_needed"_qs].toInt(), int(std::ceil(500000 * 1.1 / bestTps)));
    auto near = [](double a, double b) { return std::fabs(a - b) <= 0.01 * std::fabs(b); };
    QVERIFY(near(d[u"usd_per_1m_output_tokens"_qs].toDouble(), 3.50 / (bestTps * 3600) * 1e6));
    QVERIFY(near(d[u"kwh_per_1m_output_tokens"_qs].toDouble(), 1.37 / (bestTps * 3600) * 1e6));
    QVERIFY(near(d[u"users_per_gpu"_qs].toDouble(), bestConcurrency));
    QCOMPARE(d[u"price"_qs][u"provider"_qs].toString(), u"Nebius"_qs);
    QCOMPARE(d[u"price"_qs][u"kind"_qs].toString(), u"on_demand"_qs);
    // The chosen point's TTFT p90 carries its 95 % interval from the stored requests.
    const QJsonObject ttft = d[u"checks"_qs].toArray().first().toObject();
    QCOMPARE(ttft[u"limit"_qs].toString(), u"ttft_p90<=2000"_qs);
    QVERIFY2(ttft.contains(u"interval"_qs), QJsonDocument(ttft).toJson().constData());
    QVERIFY(ttft[u"interval"_qs][u"lower"_qs].toDouble() <= ttft[u"value"_qs].toDouble());
    QVERIFY(!ttft[u"interval"_qs][u"confidence"_qs].toString().isEmpty());
    // Tier tightness: × 1 is the plan itself; × 0.5 halves TTFT and doubles tps_user (a tighter tier costs at
    // least as much per token).
    const QJsonArray steps = j[u"sensitivity"_qs][u"tier"_qs].toArray();
    QCOMPARE(steps.size(), 5);
    QCOMPARE(steps[2][u"factor"_qs].toDouble(), 1.0);
    QVERIFY(near(steps[2][u"cheapest"_qs][u"usd_per_1m_output_tokens"_qs].toDouble(),
                 d[u"usd_per_1m_output_tokens"_qs].toDouble()));
    QCOMPARE(steps[0][u"tier"_qs].toString(), u"ttft_p90<=1000,tps_user>=40"_qs);
    if (steps[0].toObject().contains(u"cheapest"_qs))
        QVERIFY(steps[0][u"cheapest"_qs][u"usd_per_1m_output_tokens"_qs].toDouble() >=
                d[u"usd_per_1m_output_tokens"_qs].toDouble());
    QVERIFY(r.err.contains(u"sensitivity to tier tightness"_qs));
    // The human text goes to stderr with --json and says where every number came from.
    QVERIFY2(r.err.contains(u"measured on the built-in simulator"_qs), qPrintable(r.err));
    QVERIFY(r.err.contains(u"on_demand, Nebius, seen 2026-12-01"_qs));
    QVERIFY(r.err.contains(u"kWh per 1M output tokens (all_in 1.370 kW/GPU)"_qs));
}

void TestCliPlan::bundleAndPriceKind()
{
    // The run's bundle instead of the history; a TCO price kind: 1.41 $/GPU-h for H200 (hyperscaler tier).
    const Run r = run({u"plan"_qs, m_out + u"/run.tlrun"_qs, u"--demand"_qs, u"users=160"_qs, u"--tier"_qs,
                       u"ttft_p90<=2000"_qs, u"--price"_qs, u"kind=tco_owning_hyperscaler"_qs});
    QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
    QVERIFY2(r.out.contains(u"H200 $1.410/GPU-hour, tco_owning_hyperscaler, SemiAnalysis"_qs),
             qPrintable(r.out));
    QVERIFY2(r.out.contains(u"demand 160 concurrent users"_qs), qPrintable(r.out));
}

void TestCliPlan::tierNoPointMeets()
{
    const Run r =
        run({u"plan"_qs, m_uuid.left(8), u"--demand"_qs, u"tps=1000"_qs, u"--tier"_qs, u"ttft_p90<=1"_qs});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.out.contains(u"no deployment meets this tier (ttft_p90<=1); the closest is gpt-oss-20b"_qs),
             qPrintable(r.out));
}

void TestCliPlan::badInputNamesTheField()
{
    const QString id = m_uuid.left(8);
    struct Case {
        QStringList args;
        QString message;
    };
    const QList<Case> cases{
        {{u"--demand"_qs, u"tps=1"_qs, u"--tier"_qs, u"ttft_p90<=2000,tps_usr>=20"_qs},
         u"tier field 2 'tps_usr>=20'"_qs},
        {{u"--demand"_qs, u"tpx=1"_qs, u"--tier"_qs, u"ttft_p90<=2000"_qs}, u"unknown field 'tpx'"_qs},
        {{u"--demand"_qs, u"tps=1"_qs, u"--tier"_qs, u"ttft_p90<=2000"_qs, u"--headroom"_qs, u"ten"_qs},
         u"--headroom"_qs},
        {{u"--demand"_qs, u"tps=1"_qs, u"--tier"_qs, u"ttft_p90<=2000"_qs, u"--price"_qs,
          u"knd=on_demand"_qs},
         u"unknown key 'knd'"_qs},
        {{u"--demand"_qs, u"tps=1"_qs, u"--tier"_qs, u"ttft_p90<=2000"_qs, u"--power"_qs, u"all_in:0.5"_qs},
         u"only board_tdp takes a utilisation"_qs},
        {{u"--tier"_qs, u"ttft_p90<=2000"_qs}, u"missing --demand"_qs},
        // A price the table lacks: the error names GPU and kind.
        {{u"--demand"_qs, u"tps=1"_qs, u"--tier"_qs, u"ttft_p90<=2000"_qs, u"--price"_qs,
          u"kind=rental_3yr,provider=Lambda"_qs},
         u"no rental_3yr price for GPU H200 from provider Lambda"_qs},
    };
    for (const Case &c : cases) {
        const Run r = run(QStringList{u"plan"_qs, id} + c.args);
        QVERIFY2(r.code == 2, qPrintable(c.args.join(u' ') + u" → "_qs + QString::number(r.code)));
        QVERIFY2(r.err.contains(c.message), qPrintable(r.err));
    }
}

// The what-if of the same deployment (gpt-oss-20b, one H200, FP8, Chat; jitter 0, seed 7 as the demo's
// simulator) from the simulator's scheduler on a virtual clock, against what the engine measured over HTTP:
// output tok/s within 5 % at every point, uncalibrated. Then calibrated on the C = 4 point only, the what-if
// at C = 16 holds the measured figure inside its stated band and within 5 %. A busy machine only slows the
// measured run (late wake-ups of client and simulator add model time): the what-if may not fall below the
// measured figure by more than 5 % anywhere, and is held above it to 5 % only while an idle thread woke on
// time (CI once measured 428 tok/s against 489 at C = 4 on a machine running the suite twice as slowly).
void TestCliPlan::whatIfAgreesWithTheEngineMeasuredRun()
{
    using namespace Throughline;
    const Catalog &cat = Catalog::builtin();
    const PerformanceModel model(*cat.model("gpt-oss-20b"), *cat.gpu("H200"), 1, Precision::Fp8);
    SchedulerConfig config;
    config.seed = 7;
    std::vector<double> measured;
    WhatIfSpec spec;
    spec.osl = 128;
    double isl = 0;
    for (const QJsonValue &p : m_points) {
        spec.concurrencies.push_back(p[u"load"_qs][u"concurrency"_qs].toInt());
        measured.push_back(p[u"metrics"_qs][u"output_tps"_qs].toDouble());
        // The prompt as the server counted it (chat template included), else the phase's ISL.
        const QJsonObject prompts = p[u"prompts"_qs].toObject();
        isl += prompts.contains(u"isl_intended_mean"_qs)
                   ? prompts[u"isl_intended_mean"_qs].toDouble() + prompts[u"isl_error_mean"_qs].toDouble()
                   : 128.0;
    }
    spec.isl = int(std::lround(isl / m_points.size()));
    const auto curve = whatIfCurve(model, spec, config);
    QCOMPARE(curve.size(), measured.size());
    for (std::size_t i = 0; i < curve.size(); ++i) {
        const double err = curve[i].outputTps / measured[i] - 1;
        std::printf("C=%d ISL %d: what-if %.1f tok/s, engine-measured %.1f tok/s (%+.2f %%)\n",
                    curve[i].concurrency, spec.isl, curve[i].outputTps, measured[i], 100 * err);
        const QString what = QStringLiteral("C=%1: %2 % (wake-up p99 %3 ms)")
                                 .arg(curve[i].concurrency)
                                 .arg(100 * err)
                                 .arg(m_wakeP99Ms);
        QVERIFY2(err >= -0.05, qPrintable(what));
        if (m_wakeP99Ms <= Throughline::TestFixture::kBusyWakeP99Ms)
            QVERIFY2(err <= 0.05, qPrintable(what));
        else if (err > 0.05)
            qWarning("%s: not judged, the machine was busy", qPrintable(what));
    }
    auto band = Capacity::calibrateToMeasured({{measured[0], curve[0].outputTps}});
    QVERIFY(band.ok());
    const Capacity::DeploymentCurve c =
        Capacity::whatIfCurve({"gpt-oss-20b · what-if", "H200", 1, 0, 0}, spec.isl, spec.osl,
                              {{curve[1].concurrency, curve[1].outputTps, curve[1].latency}}, band.value());
    const double tps = c.points.front().systemTps;
    std::printf("calibrated on C=4 (%s): C=16 what-if %.1f tok/s, band %.1f–%.1f, measured %.1f\n",
                band->source.c_str(), tps, tps * band->low, tps * band->high, measured[1]);
    if (m_wakeP99Ms > Throughline::TestFixture::kBusyWakeP99Ms)
        return; // the calibration point itself was measured slow
    QVERIFY(tps * band->low <= measured[1] && measured[1] <= tps * band->high);
    QVERIFY(std::fabs(tps / measured[1] - 1) <= 0.05);

    // Through the CLI: two H200s, not measured, next to the measured one, calibrated on its points.
    const Run r =
        run({u"--json"_qs, u"plan"_qs, m_uuid.left(8), u"--demand"_qs, u"tps=100000"_qs, u"--tier"_qs,
             u"tps_user>=20"_qs, u"--what-if"_qs, u"model=gpt-oss-20b,gpu=H200,gpus=2,precision=FP8"_qs});
    QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
    const QJsonArray ranked = QJsonDocument::fromJson(r.out.toUtf8()).object()[u"ranked"_qs].toArray();
    QCOMPARE(ranked.size(), 2);
    int simulatedRows = 0;
    for (const QJsonValue &d : ranked)
        if (d[u"point"_qs][u"origin"_qs].toString() == u"simulated"_qs) {
            ++simulatedRows;
            QCOMPARE(d[u"deployment"_qs][u"gpus"_qs].toInt(), 2);
            const QJsonObject band = d[u"point"_qs][u"band"_qs].toObject();
            QVERIFY(band[u"tps_low"_qs].toDouble() < 1 && band[u"tps_high"_qs].toDouble() > 1);
            QVERIFY2(band[u"source"_qs].toString().startsWith(u"calibrated on 2 measured points"_qs),
                     qPrintable(band[u"source"_qs].toString()));
        }
    QCOMPARE(simulatedRows, 1);
    QVERIFY2(r.err.contains(u"simulated (what-if, not measured)"_qs), qPrintable(r.err));
    QCOMPARE(run({u"plan"_qs, u"--demand"_qs, u"tps=1"_qs, u"--tier"_qs, u"tps_user>=1"_qs, u"--what-if"_qs,
                  u"model=gpt-oss-20b,gpu=H200,gpuz=2"_qs})
                 .code,
             2);
}

// report --plan-demand/--plan-tier: the run's report with its "Capacity and cost" section (GUI builds only).
void TestCliPlan::reportWithCapacitySection()
{
    const QString pdf = m_dir.filePath(u"plan-report.pdf"_qs);
    const Run r =
        run({u"report"_qs, m_uuid.left(8), u"--out"_qs, pdf, u"--plan-demand"_qs, u"tps=500000"_qs,
             u"--plan-tier"_qs, u"ttft_p90<=2000,tps_user>=20"_qs, u"--plan-headroom"_qs, u"10"_qs});
    if (r.code == 2 && r.err.contains(u"unknown command"_qs))
        QSKIP("throughline-cli built without the GUI: no report command");
    QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
    QProcess p;
    p.start(u"pdftotext"_qs, {u"-raw"_qs, pdf, u"-"_qs}); // content-stream order: a cell's lines together
    QVERIFY(p.waitForFinished(30000) && p.exitCode() == 0);
    const QString text = QString::fromUtf8(p.readAllStandardOutput()).simplified(); // cells wrap
    QVERIFY(text.count(u"Capacity and cost"_qs) >= 2);                              // contents and heading
    QVERIFY(text.contains(u"H200 $3.500/GPU-hour"_qs));
    QVERIFY(text.contains(u"measured on the built-in simulator"_qs));
    QCOMPARE(run({u"report"_qs, m_uuid.left(8), u"--out"_qs, pdf, u"--plan-demand"_qs, u"tps=5"_qs}).code, 2);
}

QTEST_GUILESS_MAIN(TestCliPlan)
#include "tst_cliplan.moc"
