// Four time-scheduled shards of one closed-loop point against one throughline-sim process, merged with
// `merge`, against one unsharded client on the same server: merged output throughput within 3 %, percentiles
// recomputed from the merged raw samples, verdict judged on the merged point with the campaign's own minimum
// window; then again with the shards' clocks off by −200/+200/−100/+150 ms (run --clock-offset-ms).
#include "clitestprocess.h"
#include "demosimprocess.h"
#include "mergedsamples.h"
#include "tests/common/jsonschemavalidator.h"

#include <QDateTime>
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
#include <cmath>
#include <vector>

#include <nlohmann/json.hpp>

class TestCliShardMerge : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void fourShardsMergeLikeOneClient();
    void fourShardsWithClockOffsets();
    void lateShardIsFlagged();

private:
    using Run = CliRun;
    QProcess *startCli(const QStringList &args);
    QJsonObject onlyPoint(const QString &resultsJson);
    // Runs 4 shards (clock offsets in ms), merges them; returns the merged point of results.json form.
    void runShardsAndCompare(const QString &tag, const std::vector<int> &offsetsMs);

    QTemporaryDir m_dir;
    QString m_campaign;
    QProcess m_sim;
    QString m_simUrl;
    double m_wholeTps = 0;
};

QProcess *TestCliShardMerge::startCli(const QStringList &args)
{
    return startCliProcess(this, m_dir.filePath(u"history.sqlite"_qs), args);
}

QJsonObject TestCliShardMerge::onlyPoint(const QString &resultsJson)
{
    const QJsonObject j = QJsonDocument::fromJson(readTextFile(resultsJson).toUtf8()).object();
    const QJsonArray points = j[u"scenarios"_qs].toArray()[0].toObject()[u"points"_qs].toArray();
    return points.size() == 1 ? points[0].toObject() : QJsonObject();
}

void TestCliShardMerge::initTestCase()
{
    QVERIFY(m_dir.isValid());
    // The demo campaign reduced to one point, C=16 with 20 × C measured requests (≈ 6 s at time scale 5):
    // long against the ±200 ms clock offsets below. Everything else (SLOs, min_window_s 0.5, targets) as
    // the demo's.
    QString text = readTextFile(QStringLiteral(THROUGHLINE_TEST_DATA_DIR "/cli/shard-campaign.json"));
    // Whatever the demo's load points and budget, this test needs one C=16 point of 20 × C requests.
    static const QRegularExpression concurrencies(u"\"concurrencies\": \\[[0-9, ]*\\]"_qs),
        budget(u"\"request_(count|multiplier)\": [0-9.]+"_qs);
    QVERIFY(text.contains(concurrencies) && text.contains(budget));
    text.replace(concurrencies, u"\"concurrencies\": [16]"_qs);
    text.replace(budget, u"\"request_multiplier\": 20"_qs);
    m_campaign = m_dir.filePath(u"one-point.json"_qs);
    QFile f(m_campaign);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text.toUtf8());
    f.close();
    // One simulated server shared by all clients; time scale 5 (demosimprocess.h says why not 20). Its
    // prefix cache stays on: prompts are unique per run (PromptSource::setRunSalt), so shard 0 — whose seqs
    // start at 0 like the reference run's — no longer finds the reference's prompts in the cache (it did,
    // and the shards were served 1.5–7 % faster than the reference).
    QString error;
    m_simUrl = startDemoSim(m_sim, &error);
    QVERIFY2(!m_simUrl.isEmpty(), qPrintable(error));

    // The reference: one client, whole load.
    const QString wholeDir = m_dir.filePath(u"whole"_qs);
    const Run whole =
        finishCliProcess(startCli({u"run"_qs, m_campaign, u"--only"_qs, u"phase=Chat"_qs, u"--endpoint"_qs,
                                   m_simUrl, u"--no-history"_qs, u"--out"_qs, wholeDir}),
                         60000);
    // 0, 1 or 4: the demo's latency targets can fail, and the client can judge itself client_bound, on a
    // loaded machine (client delays × time scale); the comparisons below depend on neither.
    QVERIFY2(whole.code == 0 || whole.code == 1 || whole.code == 4, qPrintable(whole.out + whole.err));
    const QJsonObject p = onlyPoint(wholeDir + u"/results.json"_qs);
    m_wholeTps = p[u"metrics"_qs].toObject()[u"output_tps"_qs].toDouble();
    QVERIFY(m_wholeTps > 0);
}

void TestCliShardMerge::cleanupTestCase()
{
    stopDemoSim(m_sim);
}

void TestCliShardMerge::runShardsAndCompare(const QString &tag, const std::vector<int> &offsetsMs)
{
    const int n = static_cast<int>(offsetsMs.size());
    const QString startAt = QDateTime::currentDateTimeUtc().addMSecs(2000).toString(Qt::ISODateWithMs);
    QList<QProcess *> shards;
    for (int i = 0; i < n; ++i) {
        QStringList args{
            u"run"_qs,          m_campaign,       u"--only"_qs,
            u"phase=Chat"_qs,   u"--endpoint"_qs, m_simUrl,
            u"--no-history"_qs, u"--shard"_qs,    QStringLiteral("%1/%2").arg(i).arg(n),
            u"--start-at"_qs,   startAt,          u"--point-slot"_qs,
            u"10"_qs,           u"--out"_qs,      m_dir.filePath(tag + QStringLiteral("-%1").arg(i))};
        if (offsetsMs[static_cast<std::size_t>(i)] != 0)
            args << u"--clock-offset-ms"_qs << QString::number(offsetsMs[static_cast<std::size_t>(i)]);
        shards << startCli(args);
    }
    for (QProcess *p : shards) {
        const Run r = finishCliProcess(p, 60000);
        QVERIFY2(r.code == 0, qPrintable(r.err));
    }
    QStringList mergeArgs{u"merge"_qs};
    for (int i = 0; i < n; ++i)
        mergeArgs << m_dir.filePath(tag + QStringLiteral("-%1/run.tlrun").arg(i));
    const QString merged = m_dir.filePath(tag + u"-merged.tlrun"_qs);
    mergeArgs << u"--out"_qs << merged << u"--json"_qs;
    const Run m = finishCliProcess(startCli(mergeArgs), 60000);
    const QJsonObject report = QJsonDocument::fromJson(m.out.toUtf8()).object();
    QVERIFY2(!report.isEmpty(), qPrintable(m.out + m.err));
    QCOMPARE(report[u"shards"_qs].toInt(), n);
    QCOMPARE(report[u"points"_qs].toInt(), 1);
    QCOMPARE(report[u"points_aligned_on_schedule"_qs].toInt(), 1);
    QCOMPARE(report[u"requests"_qs].toInt(), 16 * 20 + 16); // the unsharded budget, split without loss
    // Lateness against each shard's own clock: the offsets cancel, the shards started on schedule.
    QVERIFY2(report[u"max_skew_ms"_qs].toDouble() < 50, qPrintable(m.out));
    // Judged on the merged point with the campaign's targets (demo-targets.json, stored by the shards).
    QCOMPARE(report[u"targets"_qs].toString().isEmpty(), false);
    const QJsonArray verdicts = report[u"verdicts"_qs].toArray();
    QCOMPARE(verdicts.size(), 1);
    const QString verdict = verdicts[0].toObject()[u"verdict"_qs].toString();
    QVERIFY2(verdict == u"pass"_qs || verdict == u"fail"_qs || verdict == u"inconclusive"_qs,
             qPrintable(m.out));
    QCOMPARE(m.code, verdict == u"fail"_qs ? 1 : 0); // inconclusive fails only with --strict

    const QString exported = m_dir.filePath(tag + u"-merged.json"_qs);
    const Run e = finishCliProcess(
        startCli({u"export"_qs, merged, u"--format"_qs, u"json"_qs, u"--out"_qs, exported}), 30000);
    QVERIFY2(e.code == 0, qPrintable(e.err));
    const QJsonObject point = onlyPoint(exported);
    QVERIFY(!point.isEmpty());
    // The campaign's min_window_s (0.5 s), not the 60 s default: no window_short (the window is ≈ 6 s).
    const QJsonObject validity = point[u"validity"_qs].toObject();
    QVERIFY2(!validity[u"flags"_qs].toArray().contains(u"window_short"_qs),
             QJsonDocument(validity).toJson().constData());
    QVERIFY2(!validity[u"flags"_qs].toArray().contains(u"shard_skew"_qs),
             QJsonDocument(validity).toJson().constData());
    QCOMPARE(point[u"load"_qs].toObject()[u"concurrency"_qs].toInt(), 16);
    QCOMPARE(point[u"merge"_qs].toObject()[u"shards"_qs].toInt(), n);
    const QJsonObject mj = QJsonDocument::fromJson(readTextFile(exported).toUtf8()).object();
    // The merged export (its "merge" object and shard flags included) is a valid results.json.
    const auto schema = nlohmann::json::parse(
        readTextFile(QStringLiteral(THROUGHLINE_SOURCE_DIR "/resources/schemas/results.schema.json"))
            .toStdString());
    std::string problems;
    for (const std::string &p : Throughline::JsonSchemaValidator(schema).validate(
             nlohmann::json::parse(readTextFile(exported).toStdString())))
        problems += p + "\n";
    QVERIFY2(problems.empty(), problems.c_str());
    QCOMPARE(mj[u"scenarios"_qs].toArray()[0].toObject()[u"verdict"_qs].toObject()[u"status"_qs].toString(),
             verdict);

    const double tps = point[u"metrics"_qs].toObject()[u"output_tps"_qs].toDouble();
    qInfo("%s: one client %.1f tok/s, %d shards merged %.1f tok/s (%+.2f %%)", qPrintable(tag), m_wholeTps, n,
          tps, (tps / m_wholeTps - 1) * 100);
    QVERIFY2(std::abs(tps / m_wholeTps - 1) < 0.03,
             qPrintable(QStringLiteral("%1 vs %2").arg(m_wholeTps).arg(tps)));

    // Percentiles from the merged raw samples: TTFT of the measured set (non-warm-up, successful, t_send in
    // [first, last) of the merged point) recomputed from the merged bundle's request rows.
    const QString csv = m_dir.filePath(tag + u"-requests.csv"_qs);
    const Run rc = finishCliProcess(
        startCli({u"export"_qs, merged, u"--format"_qs, u"csv"_qs, u"--requests"_qs, u"--out"_qs, csv}),
        30000);
    QVERIFY2(rc.code == 0, qPrintable(rc.err));
    const MergedSamples samples = mergedTtftSamples(readTextFile(csv));
    QVERIFY2(samples.error.isEmpty(), qPrintable(samples.error));
    QCOMPARE(samples.measured, std::size_t(16 * 20));
    const std::vector<double> &ttft = samples.ttftMs;
    const QJsonObject t = point[u"metrics"_qs].toObject()[u"ttft_ms"_qs].toObject();
    QCOMPARE(t[u"n"_qs].toInt(), static_cast<int>(ttft.size()));
    for (const auto &[key, p] : {std::pair{u"p50"_qs, 0.5}, std::pair{u"p90"_qs, 0.9}}) {
        const double expect = percentileSorted(ttft, p);
        QVERIFY2(std::abs(t[key].toDouble() - expect) < 0.01,
                 qPrintable(QStringLiteral("%1: %2 vs %3").arg(key).arg(t[key].toDouble()).arg(expect)));
    }
    // Intervals recomputed from the merged samples, not taken from a shard: the merged TTFT p50's bounds are
    // order statistics of the merged sample (a shard's bounds come from its own quarter of it).
    const QJsonObject iv = point[u"intervals"_qs].toObject()[u"metrics"_qs].toObject();
    const QJsonObject p50 = iv[u"ttft_ms"_qs].toObject()[u"p50"_qs].toObject();
    QVERIFY2(!p50.isEmpty(), QJsonDocument(point[u"intervals"_qs].toObject()).toJson().constData());
    const double lower = p50[u"lower"_qs].toDouble();
    QVERIFY(std::any_of(ttft.begin(), ttft.end(), [&](double v) { return std::abs(v - lower) < 0.01; }));
    QVERIFY(p50[u"lower"_qs].toDouble() <= t[u"p50"_qs].toDouble() &&
            t[u"p50"_qs].toDouble() <= p50[u"upper"_qs].toDouble());
    QVERIFY(iv[u"output_tps"_qs].toObject()[u"value"_qs].toObject()[u"lower"_qs].toDouble() < tps);
}

void TestCliShardMerge::fourShardsMergeLikeOneClient()
{
    runShardsAndCompare(u"sync"_qs, {0, 0, 0, 0});
}

void TestCliShardMerge::fourShardsWithClockOffsets()
{
    runShardsAndCompare(u"offset"_qs, {-200, 200, -100, 150});
    // The injected offsets are recorded with each shard (testing provenance).
    const QString prov = readTextFile(m_dir.filePath(u"offset-1/provenance.json"_qs));
    QVERIFY2(prov.contains(u"\"clock_offset_ms\": 200"_qs), qPrintable(prov.left(400)));
}

// A shard that really starts late (launched after its slot) is late on its own clock too: merge flags the
// point (shard_skew, invalid) and the campaign is judged invalid (exit 4, as `run`).
void TestCliShardMerge::lateShardIsFlagged()
{
    const QDateTime start = QDateTime::currentDateTimeUtc().addMSecs(1500);
    const QString startAt = start.toString(Qt::ISODateWithMs);
    auto shardArgs = [&](int i) {
        return QStringList{
            u"run"_qs,          m_campaign,       u"--only"_qs,
            u"phase=Chat"_qs,   u"--endpoint"_qs, m_simUrl,
            u"--no-history"_qs, u"--shard"_qs,    QStringLiteral("%1/2").arg(i),
            u"--start-at"_qs,   startAt,          u"--point-slot"_qs,
            u"10"_qs,           u"--out"_qs,      m_dir.filePath(QStringLiteral("late-%1").arg(i))};
    };
    QProcess *first = startCli(shardArgs(0));
    // Shard 1 starts ≥ 400 ms after the slot (the --clock-offset-ms of the test above would not do: a
    // shifted clock waits for its own reading of the slot).
    QTRY_VERIFY_WITH_TIMEOUT(QDateTime::currentDateTimeUtc() > start.addMSecs(400), 10000);
    QProcess *second = startCli(shardArgs(1));
    for (QProcess *p : {first, second}) {
        const Run r = finishCliProcess(p, 60000);
        QVERIFY2(r.code == 0, qPrintable(r.err));
    }
    const Run m = finishCliProcess(
        startCli({u"merge"_qs, m_dir.filePath(u"late-0/run.tlrun"_qs), m_dir.filePath(u"late-1/run.tlrun"_qs),
                  u"--out"_qs, m_dir.filePath(u"late.tlrun"_qs), u"--json"_qs}),
        60000);
    const QJsonObject report = QJsonDocument::fromJson(m.out.toUtf8()).object();
    QVERIFY2(report[u"max_skew_ms"_qs].toDouble() > 400, qPrintable(m.out));
    QCOMPARE(report[u"warnings"_qs].toArray().size(), 1);
    QVERIFY2(report[u"warnings"_qs].toArray()[0].toString().contains(u"shard start skew"_qs),
             qPrintable(m.out));
    QCOMPARE(report[u"verdicts"_qs].toArray()[0].toObject()[u"verdict"_qs].toString(), u"invalid"_qs);
    QCOMPARE(m.code, 4);
}

QTEST_GUILESS_MAIN(TestCliShardMerge)
#include "tst_clishardmerge.moc"
