// `throughline-cli run --mlperf`: the MLPerf Endpoints rules checked live in real runs of the built
// executable against the built-in simulator (core/run/mlperfmode.h, docs/mlperf-endpoints.md "Live
// compliance").
//   - a shortened real-time run (time scale 1, a few seconds per point) fails exactly the duration rule
//     EPR-28 at its first (Ultra Low) point and stops there: 1 of 7 planned points measured, exit 1, the rule
//     on the point line, in DIR/mlperf/compliance.json and in the stored run's provenance;
//   - with --mlperf-continue the same campaign is flagged, not stopped;
//   - campaigns that break one curve rule each are refused before any request (too few points: EPR-09; a
//     missing Medium point: EPR-16; a point beyond ceil(1.1 × C_max): EPR-19), and a curve the rules'
//     planner cannot place is refused naming the rule (EPR-09, 5 points).
//   - with a dataset size every point issues whole passes (at least 4), the §4.4 detector judges it and the
//     prompts are samples drawn with replacement: EPR-30/31/36/37/38 pass live.
// The compliant time-scaled rehearsal of real length is a benchmark (tests/bench/bench_mlperf_live.sh).
#include "app/clitestprocess.h"
#include "core/metrics/pointresult.h"
#include "core/mlperf/adaptiveplacement.h"
#include "core/mlperf/frontier.h"
#include "core/storage/historyreader.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace Throughline;

namespace {

// One scenario on the simulator in real time (time scale 1): short prompts and outputs, a few requests per
// point, so a point lasts seconds and the rules' 600 s Ultra Low minimum cannot be met.
QByteArray campaign(const QByteArray &plan)
{
    return R"({
  "schema": "throughline.campaign/1",
  "name": "MLPerf live check",
  "models": ["gpt-oss-20b"],
  "backends": ["vllm"],
  "deployments": [ { "gpu": "H200", "gpus": 1, "parallelism": "TP1", "precision": "FP8" } ],
  "phases": [ { "name": "Short", "isl": 64, "osl": 16 } ],
  "endpoints": [ { "name": "sim", "kind": "simulated", "flavour": "chat",
                   "sim": { "time_scale": 1, "jitter": 0, "seed": 3 } } ],
  "plan": )" +
           plan +
           R"(
})";
}

const QByteArray kCurve = R"({ "mode": "curve", "spacing": "mlperf_endpoints", "c_min": 1, "c_max": 64,
    "request_count": 8, "warmup_requests": 0, "cooldown_s": 0, "min_window_s": 0, "max_duration_s": 60,
    "request_timeout_s": 30, "seed": 3 })";

QByteArray closedPlan(const QByteArray &concurrencies)
{
    return R"({ "mode": "closed", "concurrencies": )" + concurrencies +
           R"(, "request_count": 4, "warmup_requests": 0, "cooldown_s": 0, "min_window_s": 0, "seed": 3 })";
}

} // namespace

class TestCliMlperf : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }
    void shortRealTimeRunFailsExactlyTheDurationRuleAndStops();
    void continueFlagsWithoutStopping();
    void brokenPlansAreRefusedBeforeAnyRequest_data();
    void brokenPlansAreRefusedBeforeAnyRequest();
    void plannerRefusalNamesTheRule();
    void wholePassesSteadyStateAndSampleOrderLive();
    void adaptiveChoicePointsFollowTheFrontier();

private:
    using Run = CliRun;
    Run run(const QStringList &args);
    QString write(const QString &name, const QByteArray &content);
    QString db() const { return m_dir.filePath(u"history.sqlite"_qs); }
    QTemporaryDir m_dir;
};

TestCliMlperf::Run TestCliMlperf::run(const QStringList &args)
{
    return runCli(db(), args, 120000);
}

QString TestCliMlperf::write(const QString &name, const QByteArray &content)
{
    return writeTestFile(m_dir.filePath(name), content);
}

static QJsonObject readJson(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

static QStringList strings(const QJsonValue &v)
{
    QStringList out;
    for (const QJsonValue &x : v.toArray())
        out << x.toString();
    return out;
}

void TestCliMlperf::shortRealTimeRunFailsExactlyTheDurationRuleAndStops()
{
    const QString file = write(u"curve.json"_qs, campaign(kCurve));
    const QString out = m_dir.filePath(u"out-stop"_qs);
    const Run r = run({u"run"_qs, file, u"--mlperf"_qs, u"--out"_qs, out});
    // Not compliant: exit 1 (not 3: a stop by a rule is no runtime error).
    QVERIFY2(r.code == 1, qPrintable(r.out + r.err));
    // The plan the rules give C_min 1 / C_max 64 with the C_max point elected as Offline: 7 points.
    QVERIFY2(r.out.contains(u"MLPerf mlperf-endpoints-1.0"_qs) && r.out.contains(u"7 point(s): C=1 "_qs),
             qPrintable(r.out));
    // The point line of C=1 names the rule with the numbers, in real time (no time-scale note).
    static const QRegularExpression line(
        u"mlperf \\S+ C=1: fail EPR-28 \\(\\d+ s of steady-state issue span, "
        u"600 s required\\)"_qs);
    QVERIFY2(line.match(r.out).hasMatch(), qPrintable(r.out));
    QVERIFY2(!r.out.contains(u"model time"_qs), qPrintable(r.out));
    // Stopped after its first point, with the rule id, before the other six.
    QVERIFY2(r.err.contains(u"aborted: MLPerf mlperf-endpoints-1.0: can no longer comply: EPR-28"_qs) &&
                 r.err.contains(u"6 planned point(s) not run"_qs),
             qPrintable(r.err));
    QCOMPARE(int(r.out.count(u"\n  mlperf "_qs)), 1); // one point line: nothing ran after C=1

    const QJsonObject rep = readJson(out + u"/mlperf/compliance.json"_qs);
    QCOMPARE(rep[u"preset"_qs].toString(), u"mlperf-endpoints-1.0"_qs);
    const QJsonObject sc = rep[u"scenarios"_qs].toArray().first().toObject();
    QCOMPARE(strings(sc[u"failed_rules"_qs]), QStringList{u"EPR-28"_qs}); // exactly the duration rule
    QCOMPARE(sc[u"overall"_qs].toString(), u"fail"_qs);
    QCOMPARE(sc[u"points_measured"_qs].toInt(), 1);
    QCOMPARE(int(sc[u"plan"_qs].toArray().size()), 7);
    QVERIFY(sc[u"stopped"_qs].toString().contains(u"EPR-28"_qs));
    // The rules the client cannot decide are listed, never passed: no steady-state detector, no dataset.
    const QStringList blocked = strings(sc[u"blocked_rules"_qs]);
    for (const char *id : {"EPR-31", "EPR-40", "VAL-04"})
        QVERIFY2(blocked.contains(QString::fromLatin1(id)), qPrintable(blocked.join(u' ')));
    // Coverage of the regions not reached stays pending (the stop is not blamed on missing points).
    for (const QJsonValue &c : sc[u"checks"_qs].toArray()) {
        const QJsonObject o = c.toObject();
        if (o[u"rule"_qs] == u"EPR-16"_qs || o[u"rule"_qs] == u"EPR-09"_qs)
            QCOMPARE(o[u"state"_qs].toString(), u"pending"_qs);
    }

    // Stored with the run: the report is in the run's provenance.
    HistoryReader reader;
    QVERIFY(reader.open(db().toStdString()).ok());
    auto runs = reader.listRuns();
    QVERIFY(runs.ok() && !runs->empty());
    auto detail = reader.runDetail(runs->front().uuid);
    QVERIFY(detail.ok());
    const auto &pv = detail->provenance;
    QVERIFY2(pv.contains("mlperf"), pv.dump().c_str());
    QCOMPARE(pv["mlperf"]["scenarios"][0]["failed_rules"].dump(), std::string(R"(["EPR-28"])"));
}

void TestCliMlperf::continueFlagsWithoutStopping()
{
    // A closed list is judged as it is (C_min 1 Ultra Low, 4 Low, 8 Medium, 20…64 High; 7 points with the
    // C_max point elected): C=1 fails EPR-28, the campaign is flagged right after it, and the rest is still
    // measured (each later point fails EPR-29, 1200 s).
    const QString file = write(u"closed-continue.json"_qs, campaign(closedPlan("[1, 4, 8, 20, 40, 50, 64]")));
    const QString out = m_dir.filePath(u"out-continue"_qs);
    const Run r =
        run({u"run"_qs, file, u"--mlperf"_qs, u"--mlperf-continue"_qs, u"--no-history"_qs, u"--out"_qs, out});
    QVERIFY2(r.code == 1, qPrintable(r.out + r.err));
    QVERIFY2(r.out.contains(u"can no longer comply: EPR-28"_qs), qPrintable(r.out));
    QVERIFY2(r.out.contains(u"C=64: fail EPR-29"_qs), qPrintable(r.out)); // measured to the end
    QVERIFY2(!r.err.contains(u"aborted"_qs), qPrintable(r.err));
    QVERIFY2(r.out.contains(u"7 of 7 point(s) measured; failed EPR-28, EPR-29"_qs), qPrintable(r.out));
    // Without a history the compliance report still goes with the run: provenance.json and the bundle hold
    // it.
    QFile provenance(out + u"/provenance.json"_qs);
    QVERIFY(provenance.open(QIODevice::ReadOnly));
    QVERIFY(QJsonDocument::fromJson(provenance.readAll()).object()[u"mlperf"_qs][u"scenarios"_qs].isArray());
    // The report of the bundle shows the curve the rules were judged on (ui/report/mlperfcharts.h).
    const QString pdf = m_dir.filePath(u"mlperf.pdf"_qs);
    const Run report = run({u"report"_qs, out + u"/run.tlrun"_qs, u"--out"_qs, pdf});
    if (report.code == 2 && report.err.contains(u"unknown command"_qs))
        QSKIP("throughline-cli built without the GUI: no report command");
    QVERIFY2(report.code == 0, qPrintable(report.out + report.err));
    QProcess text;
    text.start(u"pdftotext"_qs, {u"-layout"_qs, pdf, u"-"_qs});
    QVERIFY(text.waitForFinished(30000));
    const QString body = QString::fromUtf8(text.readAllStandardOutput()).simplified();
    // Every point has 4 requests (low_sample): all drawn hollow, none on a frontier.
    for (const QString &expected : {u"MLPerf Endpoints curves"_qs, u"Rules preset mlperf-endpoints-1.0"_qs,
                                    u"MLPerf Endpoints frontier"_qs, u"TTFT p90 vs concurrency"_qs,
                                    u"system tokens/s vs concurrency"_qs, u"No valid point: no frontier."_qs})
        QVERIFY2(body.contains(expected), qPrintable(expected + u"\n"_qs + body));
}

void TestCliMlperf::brokenPlansAreRefusedBeforeAnyRequest_data()
{
    QTest::addColumn<QByteArray>("concurrencies");
    QTest::addColumn<QString>("rule");
    // C_min 1 / C_max 64: Low 2–5, Medium 6–17, High 18–64, margin to 71.
    QTest::newRow("too few points") << QByteArray("[1, 4, 8, 64]") << u"EPR-09"_qs;
    QTest::newRow("no Medium point") << QByteArray("[1, 2, 3, 4, 5, 40, 64]") << u"EPR-16"_qs;
    QTest::newRow("beyond the margin") << QByteArray("[1, 4, 8, 12, 16, 64, 72]") << u"EPR-19"_qs;
}

void TestCliMlperf::brokenPlansAreRefusedBeforeAnyRequest()
{
    QFETCH(QByteArray, concurrencies);
    QFETCH(QString, rule);
    const QString file = write(u"closed.json"_qs, campaign(closedPlan(concurrencies)));
    const QString out = m_dir.filePath(u"out-refused"_qs);
    QStringList args{u"run"_qs, file, u"--mlperf"_qs, u"--no-history"_qs, u"--out"_qs, out};
    if (rule == u"EPR-19"_qs)
        args << u"--mlperf-c-max"_qs << u"64"_qs;
    const Run r = run(args);
    QVERIFY2(r.code == 1, qPrintable(r.out + r.err));
    // Exactly that rule, before the first request: nothing was run or written.
    static const QRegularExpression failed(u"can no longer comply: ([A-Z]+-\\d+)( \\([^;]*\\))?\\n"_qs);
    const auto m = failed.match(r.err);
    QVERIFY2(m.hasMatch(), qPrintable(r.err));
    QCOMPARE(m.captured(1), rule);
    QVERIFY2(r.err.contains(u"not run: the MLPerf plan cannot comply"_qs), qPrintable(r.err));
    QVERIFY(!QFile::exists(out + u"/results.json"_qs));
}

void TestCliMlperf::plannerRefusalNamesTheRule()
{
    const QString file = write(u"curve5.json"_qs, campaign(kCurve));
    const Run r = run({u"run"_qs, file, u"--mlperf"_qs, u"--mlperf-points"_qs, u"5"_qs, u"--no-history"_qs});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains(u"EPR-09"_qs), qPrintable(r.err));
    const Run bad = run({u"run"_qs, file, u"--mlperf-points"_qs, u"5"_qs});
    QCOMPARE(bad.code, 2);
    QVERIFY2(bad.err.contains(u"--mlperf-points needs --mlperf"_qs), qPrintable(bad.err));
    // Repeats (plan.repeats) have no place in the rules' one-run-per-concurrency curve: refused, named.
    QByteArray repeated = kCurve;
    repeated.replace("\"seed\": 3", "\"seed\": 3, \"repeats\": 2");
    const QString twice = write(u"curve-repeats.json"_qs, campaign(repeated));
    const Run rep = run({u"run"_qs, twice, u"--mlperf"_qs, u"--no-history"_qs});
    QCOMPARE(rep.code, 2);
    QVERIFY2(rep.err.contains(u"plan.repeats is 2; set it to 1 for --mlperf"_qs), qPrintable(rep.err));
}

void TestCliMlperf::wholePassesSteadyStateAndSampleOrderLive()
{
    // With a dataset of 8 samples each point issues whole passes, at least 4, once its (short) duration is
    // over; the §4.4 detector judges each fixed point and the prompts are samples drawn with replacement. The
    // list [1, 4, 8] is too short and too brief for the rules (EPR-08, EPR-28/29: --mlperf-continue runs it),
    // but the dataset and steady-state rules pass on every point, live.
    const QByteArray plan = R"({ "mode": "closed", "concurrencies": [1, 4, 8], "request_count": 100000,
        "point_duration_s": 1, "warmup_requests": 0, "cooldown_s": 0, "min_window_s": 0, "seed": 3 })";
    const QString file = write(u"passes.json"_qs, campaign(plan));
    const QString out = m_dir.filePath(u"out-passes"_qs);
    const Run r = run({u"run"_qs, file, u"--mlperf"_qs, u"--mlperf-continue"_qs, u"--mlperf-dataset-size"_qs,
                       u"8"_qs, u"--no-history"_qs, u"--out"_qs, out});
    QVERIFY2(r.code == 1, qPrintable(r.out + r.err));
    const QJsonObject results = readJson(out + u"/results.json"_qs);
    const QJsonArray points = results[u"scenarios"_qs].toArray().first()[u"points"_qs].toArray();
    QCOMPARE(int(points.size()), 3);
    for (const QJsonValue &p : points) {
        const int sent = p[u"n_sent"_qs].toInt();
        QVERIFY2(sent >= 32 && sent % 8 == 0, qPrintable(QString::number(sent)));
    }
    const QJsonObject sc =
        readJson(out + u"/mlperf/compliance.json"_qs)[u"scenarios"_qs].toArray().first().toObject();
    QCOMPARE(sc[u"sample_order"_qs].toString(), u"with_replacement"_qs);
    const QJsonArray steady = sc[u"steady_state"_qs].toArray();
    QCOMPARE(int(steady.size()), 3);
    for (int i = 0; i < 2; ++i) { // the fixed points; the Offline point (C=8) is exempt from §4.4
        QCOMPARE(steady[i][u"verdict"_qs].toString(), u"STEADY STATE"_qs);
        QVERIFY(steady[i][u"super_passes"_qs].toInt() >= 4);
        QCOMPARE(int(steady[i][u"gating"_qs].toArray().size()), 2); // TPOT p50, p90
    }
    for (const QJsonValue &c : sc[u"checks"_qs].toArray()) {
        const QJsonObject o = c.toObject();
        for (const char *id : {"EPR-30", "EPR-31", "EPR-36", "EPR-37", "EPR-38"})
            if (o[u"rule"_qs].toString() == QLatin1String(id))
                QVERIFY2(o[u"state"_qs].toString() == u"pass"_qs,
                         qPrintable(QString::fromLatin1(QJsonDocument(o).toJson())));
    }
    const QStringList failed = strings(sc[u"failed_rules"_qs]);
    for (const char *id : {"EPR-30", "EPR-31", "EPR-36", "EPR-37", "EPR-38"})
        QVERIFY2(!failed.contains(QString::fromLatin1(id)), qPrintable(failed.join(u' ')));
}

void TestCliMlperf::adaptiveChoicePointsFollowTheFrontier()
{
    // --mlperf-adaptive: the curve's three choice points run after the four mandatory ones, each at the
    // concurrency nextAdaptivePoint gives for the points measured before it (recomputed here from
    // results.json), inside [C_min, C_max]; the stored plan holds the chosen concurrencies.
    // 100 requests in each point's window (TPOT p90 needs them: curvePointOf; the last send closes the
    // window), at time scale 10.
    QByteArray c = campaign(QByteArray(kCurve).replace("\"request_count\": 8", "\"request_count\": 101"));
    c.replace("\"time_scale\": 1,", "\"time_scale\": 10,");
    const QString file = write(u"adaptive.json"_qs, c);
    const QString out = m_dir.filePath(u"out-adaptive"_qs);
    const Run r = run({u"run"_qs, file, u"--mlperf"_qs, u"--mlperf-adaptive"_qs, u"--mlperf-continue"_qs,
                       u"--no-history"_qs, u"--out"_qs, out});
    QVERIFY2(r.code == 1, qPrintable(r.out + r.err)); // short points: the durations fail (EPR-28/29)
    QFile f(out + u"/results.json"_qs);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const auto results = nlohmann::json::parse(f.readAll().toStdString());
    std::vector<Mlperf::CurvePoint> measured;
    std::vector<int> order;
    for (const auto &pj : results["scenarios"][0]["points"]) {
        auto p = PointResult::fromJson(pj);
        QVERIFY(p.ok());
        order.push_back(p->load.concurrency);
        if (order.size() > 4) { // a choice slot: what the rule gives for the points before it
            const auto next = Mlperf::nextAdaptivePoint(measured, 1, 64, 8 - static_cast<int>(order.size()));
            QVERIFY(next);
            QCOMPARE(p->load.concurrency, next->concurrency);
        }
        if (const auto cp = Mlperf::curvePointOf(*p))
            measured.push_back(*cp);
    }
    QCOMPARE(int(order.size()), 7);
    QCOMPARE(order.front(), 1); // C_min first, C_max among the mandatory four
    QVERIFY(std::find(order.begin(), order.begin() + 4, 64) != order.begin() + 4);
    for (std::size_t k = 4; k < order.size(); ++k)
        QVERIFY(order[k] > 1 && order[k] < 64);
    const QJsonObject rep = readJson(out + u"/mlperf/compliance.json"_qs);
    QVERIFY(rep[u"adaptive"_qs].toBool());
    const QJsonArray plan = rep[u"scenarios"_qs].toArray().first()[u"plan"_qs].toArray();
    for (int k = 0; k < 7; ++k) {
        QCOMPARE(plan[k][u"concurrency"_qs].toInt(), order[std::size_t(k)]);
        QCOMPARE(plan[k][u"role"_qs].toString(), k == 0  ? u"ultra_low"_qs
                                                 : k < 4 ? u"mandatory"_qs
                                                         : u"choice"_qs);
    }
}

QTEST_GUILESS_MAIN(TestCliMlperf)
#include "tst_climlperf.moc"
