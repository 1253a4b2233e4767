// `throughline-cli compare` and `run --baseline` end to end: the demo's Chat phase run three times against
// throughline-sim over loopback (jitter 0.1) — twice on one deployment (simulator seeds 7 and 9), once on a
// deployment made 25 % slower (`--slowdown 25`: every scheduler step takes 1.25 × as long). The runs' own
// intervals (results.json /3) decide: the slower deployment is `regressed` (TPOT p50 up by about a quarter)
// and `--fail-on regression` exits 1; the same deployment's pair exits 0 on the throughput. Runs named by
// results.json, by bundle and by history id; `run --baseline auto` picks the campaign's previous run.
#include "clitestprocess.h"
#include "demosimprocess.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

class TestCliCompare : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void slowerDeploymentRegresses();
    void sameDeploymentIsWithinNoise();
    void historyIdsAndJson();
    void badInput();
    void runBaselineAutoGates();

private:
    // Runs the Chat phase against a fresh simulator with `simArgs`; returns its output directory.
    QString runChat(const QString &name, const QStringList &simArgs, const QStringList &extra = {},
                    CliRun *result = nullptr, const QString &campaign = {});
    CliRun cli(const QStringList &args) { return runCli(m_db, args, 120000); }

    QTemporaryDir m_dir;
    QString m_db, m_campaign, m_base, m_same, m_slow;
};

QString TestCliCompare::runChat(const QString &name, const QStringList &simArgs, const QStringList &extra,
                                CliRun *result, const QString &campaign)
{
    QProcess sim;
    QString error;
    const QString url = startDemoSim(sim, &error, simArgs);
    if (url.isEmpty())
        qFatal("%s", qPrintable(error));
    const QString out = m_dir.filePath(name);
    const CliRun r = cli(QStringList{u"run"_s, campaign.isEmpty() ? m_campaign : campaign, u"--endpoint"_s,
                                     url, u"--out"_s, out} +
                         extra);
    stopDemoSim(sim);
    if (result)
        *result = r;
    else if (r.code != 0)
        qFatal("run %s: exit %d\n%s%s", qPrintable(name), r.code, qPrintable(r.out), qPrintable(r.err));
    return out;
}

void TestCliCompare::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_db = m_dir.filePath(u"history.sqlite"_s);
    // The demo's Chat phase at C = 8 and 16 with 300 requests a point: p90s reportable, a few seconds a run.
    m_campaign = writeTestFile(m_dir.filePath(u"chat.json"_s), R"({
      "schema": "throughline.campaign/1",
      "name": "compare test: gpt-oss-20b Chat",
      "models": ["gpt-oss-20b"], "backends": ["vllm"],
      "deployments": [{ "gpu": "H200", "gpus": 1, "parallelism": "TP1", "precision": "FP8" }],
      "phases": [{ "preset": "Chat" }],
      "endpoints": [{ "name": "sim", "kind": "http", "base_url": "http://127.0.0.1:1", "flavour": "chat" }],
      "plan": { "mode": "closed", "concurrencies": [8, 16], "request_count": 300, "warmup_multiplier": 1,
                "min_window_s": 0.5, "max_duration_s": 60, "request_timeout_s": 30, "seed": 7 }
    })");
    const QStringList jitter{u"--jitter"_s, u"0.1"_s};
    m_base = runChat(u"base"_s, jitter);
    m_same = runChat(u"same"_s, jitter + QStringList{u"--seed"_s, u"9"_s});
    m_slow = runChat(u"slow"_s, jitter + QStringList{u"--slowdown"_s, u"25"_s});
}

void TestCliCompare::slowerDeploymentRegresses()
{
    const CliRun r = cli({u"compare"_s, m_base + u"/results.json"_s, m_slow + u"/results.json"_s,
                          u"--fail-on"_s, u"regression"_s});
    QVERIFY2(r.code == 1, qPrintable(QString::number(r.code) + u'\n' + r.out + r.err));
    QVERIFY2(r.out.contains(u"overall: regressed"_s), qPrintable(r.out));
    QVERIFY2(r.out.contains(u"tpot_ms.p50"_s) && r.out.contains(u"regressed"_s), qPrintable(r.out));
    QVERIFY2(r.out.contains(u"Holm"_s), qPrintable(r.out));
    // Without --fail-on the comparison is reported, not gated.
    QCOMPARE(cli({u"compare"_s, m_base + u"/results.json"_s, m_slow + u"/results.json"_s}).code, 0);
    // The other way round the candidate is faster: improved, nothing to fail on.
    const CliRun back = cli(
        {u"compare"_s, m_slow + u"/run.tlrun"_s, m_base + u"/run.tlrun"_s, u"--fail-on"_s, u"regression"_s});
    QVERIFY2(back.code == 0, qPrintable(back.out + back.err));
    QVERIFY2(back.out.contains(u"overall: improved"_s), qPrintable(back.out));
}

void TestCliCompare::sameDeploymentIsWithinNoise()
{
    const CliRun r = cli({u"compare"_s, m_base + u"/results.json"_s, m_same + u"/results.json"_s,
                          u"--metrics"_s, u"output_tps,request_rate"_s, u"--fail-on"_s, u"regression"_s});
    QVERIFY2(r.code == 0, qPrintable(r.out + r.err));
    QVERIFY2(!r.out.contains(u"regressed"_s), qPrintable(r.out));
    QVERIFY2(r.out.contains(u"2 shared points"_s), qPrintable(r.out));
}

void TestCliCompare::historyIdsAndJson()
{
    const CliRun runs = cli({u"runs"_s, u"--json"_s});
    QCOMPARE(runs.code, 0);
    const QJsonArray list = QJsonDocument::fromJson(runs.out.toUtf8()).array();
    QVERIFY2(list.size() >= 3, qPrintable(runs.out));
    // Newest first: slow, same, base.
    const QString slow = list[0].toObject()[u"run_id"_s].toString().left(8);
    const QString base = list[2].toObject()[u"run_id"_s].toString().left(8);
    const CliRun r = cli({u"compare"_s, base, slow, u"--json"_s});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    const QJsonObject j = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QCOMPARE(j[u"overall"_s].toString(), u"regressed"_s);
    QCOMPARE(j[u"rule"_s].toString(), u"holm"_s);
    QCOMPARE(j[u"shared_points"_s].toInt(), 2);
    const QJsonArray rows = j[u"comparisons"_s].toArray();
    QCOMPARE(rows.size(), 6); // 2 points × the 3 default metrics
    bool tpotRegressed = false;
    for (const QJsonValue &row : rows) {
        const QJsonObject o = row.toObject();
        if (o[u"metric"_s].toString() != u"tpot_ms.p50"_s)
            continue;
        QCOMPARE(o[u"outcome"_s].toString(), u"regressed"_s);
        const double effect = o[u"effect"_s].toDouble();
        QVERIFY2(effect > 0.15 && effect < 0.35, qPrintable(QString::number(effect)));
        QVERIFY(o[u"effect_lower"_s].toDouble() < effect && effect < o[u"effect_upper"_s].toDouble());
        QVERIFY(o[u"p_value"_s].toDouble() <= o[u"holm_threshold"_s].toDouble());
        tpotRegressed = true;
    }
    QVERIFY(tpotRegressed);
}

void TestCliCompare::badInput()
{
    const CliRun metric = cli({u"compare"_s, m_base + u"/results.json"_s, m_slow + u"/results.json"_s,
                               u"--metrics"_s, u"ttft_ms.p42"_s});
    QCOMPARE(metric.code, 2);
    QVERIFY2(metric.err.contains(u"\"ttft_ms.p42\" is not a metric"_s), qPrintable(metric.err));
    QCOMPARE(cli({u"compare"_s, m_base + u"/results.json"_s}).code, 2);
    QCOMPARE(cli({u"compare"_s, m_base + u"/results.json"_s, m_slow + u"/results.json"_s, u"--fail-on"_s,
                  u"anything"_s})
                 .code,
             2);
    const CliRun missing = cli({u"compare"_s, m_dir.filePath(u"nope.tlrun"_s), m_slow + u"/results.json"_s});
    QCOMPARE(missing.code, 2);
}

// The nightly gate: a slower build run with --baseline auto compares itself with the campaign's previous
// run in the history and exits 1. The same run names the base run as the campaign's targets.baseline_run:
// its verdicts carry that run's Exemplar rows (≥ 95 % of its throughput per GPU, judged with its interval),
// which the 25 % slower deployment fails — as the Targets page judges it.
void TestCliCompare::runBaselineAutoGates()
{
    QFile baseResults(m_base + u"/results.json"_s);
    QVERIFY(baseResults.open(QIODevice::ReadOnly));
    const QString baseId = QJsonDocument::fromJson(baseResults.readAll()).object()[u"run_id"_s].toString();
    QFile campaignFile(m_campaign);
    QVERIFY(campaignFile.open(QIODevice::ReadOnly));
    QJsonObject campaign = QJsonDocument::fromJson(campaignFile.readAll()).object();
    campaign[u"targets"_s] = QJsonObject{{u"baseline_run"_s, baseId.left(8)}};
    const QString withBaseline =
        writeTestFile(m_dir.filePath(u"chat-baseline.json"_s), QJsonDocument(campaign).toJson());
    CliRun r;
    const QString out = runChat(u"slow-gated"_s, {u"--jitter"_s, u"0.1"_s, u"--slowdown"_s, u"25"_s},
                                {u"--baseline"_s, m_base + u"/results.json"_s}, &r, withBaseline);
    QVERIFY2(r.code == 1, qPrintable(QString::number(r.code) + u'\n' + r.out + r.err));
    QVERIFY2(r.out.contains(u"compared with the baseline"_s) && r.out.contains(u"overall: regressed"_s),
             qPrintable(r.out));
    QFile results(out + u"/results.json"_s);
    QVERIFY(results.open(QIODevice::ReadOnly));
    const QJsonObject verdict = QJsonDocument::fromJson(results.readAll())
                                    .object()[u"scenarios"_s]
                                    .toArray()
                                    .first()[u"verdict"_s]
                                    .toObject();
    int baselineChecks = 0;
    for (const QJsonValue &c : verdict[u"checks"_s].toArray()) {
        if (c[u"kind"_s].toString() != u"baseline"_s)
            continue;
        ++baselineChecks;
        QVERIFY2(c[u"source"_s].toString().startsWith(u"run "_s + baseId.left(8)),
                 qPrintable(c[u"source"_s].toString()));
        if (c[u"metric"_s].toString() == u"output_tps_per_gpu"_s) {
            QCOMPARE(c[u"result"_s].toString(), u"fail"_s);
            QVERIFY(c[u"target_interval"_s].isObject()); // the baseline's own interval
        }
    }
    QCOMPARE(baselineChecks, 2); // output_tps_per_gpu ≥ 95 %, ttft_ms mean ≤
    QCOMPARE(verdict[u"status"_s].toString(), u"fail"_s);
    const qsizetype at = r.out.indexOf(u"recorded run "_s);
    QVERIFY2(at >= 0, qPrintable(r.out));
    const QString gatedId = r.out.mid(at + 13, 36);
    // auto: the newest earlier run of this campaign in the history — the one just made — is the baseline.
    runChat(u"slow-auto"_s, {u"--jitter"_s, u"0.1"_s, u"--slowdown"_s, u"25"_s}, {u"--baseline"_s, u"auto"_s},
            &r);
    QVERIFY2(r.out.contains(u"compared with the baseline"_s), qPrintable(r.out + r.err));
    QVERIFY2(r.out.contains(u"baseline   "_s + gatedId), qPrintable(r.out));
}

QTEST_GUILESS_MAIN(TestCliCompare)
#include "tst_clicompare.moc"
