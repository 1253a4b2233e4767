// `throughline-cli run --plan-only` and `--shard i/N` end to end: the plan (table and JSON), refusals of bad
// shard values, two time-scheduled shards of the demo campaign against one throughline-sim process merged
// with `merge` and compared with one unsharded client, and the --shard expressions of the cluster templates
// in packaging/cluster/ (expanded by /bin/sh as the cluster would, then parsed by the CLI's own parser).
#include "core/campaign/shardselector.h"

#include "clitestprocess.h"
#include "demosimprocess.h"

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

using namespace Throughline;

class TestCliShard : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void planOnlyTable();
    void planOnlyJson();
    void planSharesAddUp();
    void planOpenLoopRates();
    void badShard_data();
    void badShard();
    void searchCannotBeSharded();
    void twoShardsMergeLikeOneClient();
    void kubernetesTemplateShardExpression();
    void slurmTemplateShardExpression();

private:
    using Run = CliRun;
    Run cli(const QStringList &args, int timeoutMs = 60000);
    QProcess *startCli(const QStringList &args);
    QJsonObject planJson(const QStringList &extra);
    // "--shard EXPR" of a template, EXPR unquoted, as written (shell variables unexpanded).
    QString shardExpression(const QString &text);
    // EXPR expanded by /bin/sh with the given environment, as the cluster's shell would.
    QString shellExpand(const QString &expr, const QMap<QString, QString> &env);
    void checkTemplateShards(const QString &expr, int n, const QString &indexVar, const QString &countVar);

    QTemporaryDir m_dir;
    QString m_demo;
    QProcess m_sim;
    QString m_simUrl;
};

QProcess *TestCliShard::startCli(const QStringList &args)
{
    return startCliProcess(this, m_dir.filePath(u"history.sqlite"_qs), args);
}

TestCliShard::Run TestCliShard::cli(const QStringList &args, int timeoutMs)
{
    return finishCliProcess(startCli(args), timeoutMs);
}

QJsonObject TestCliShard::planJson(const QStringList &extra)
{
    const Run r = cli(QStringList{u"run"_qs, m_demo, u"--plan-only"_qs, u"--json"_qs} + extra);
    if (r.code != 0)
        qWarning("%s", qPrintable(r.err));
    return QJsonDocument::fromJson(r.out.toUtf8()).object();
}

void TestCliShard::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_demo = QStringLiteral(THROUGHLINE_TEST_DATA_DIR "/cli/shard-campaign.json");
    // One simulated server shared by all clients (what the shards of a cluster run share: the endpoint).
    // Deployment as the demo's, time scale 5 (demosimprocess.h says why not the demo's 20).
    QString error;
    m_simUrl = startDemoSim(m_sim, &error);
    QVERIFY2(!m_simUrl.isEmpty(), qPrintable(error));
}

void TestCliShard::cleanupTestCase()
{
    stopDemoSim(m_sim);
}

// The plan lists every scenario and point and sends nothing (the endpoint below is a closed port).
void TestCliShard::planOnlyTable()
{
    const Run r = cli({u"run"_qs, m_demo, u"--plan-only"_qs, u"--endpoint"_qs, u"http://127.0.0.1:9"_qs});
    QCOMPARE(r.code, 0);
    QVERIFY2(r.out.contains(u"2 scenario(s), 6 point(s)"_qs), qPrintable(r.out));
    QVERIFY(r.out.contains(u"gpt-oss-20b/vllm/H200×1/Chat"_qs));
    QVERIFY(r.out.contains(u"gpt-oss-20b/vllm/H200×1/Reasoning-short"_qs));
    QVERIFY(r.out.contains(u"160 + 16 warm-up"_qs)); // C=16: 10 × C measured, 1 × C warm-up
    QVERIFY(!QFile::exists(m_dir.filePath(u"history.sqlite"_qs)));
    // With the demo's simulated endpoint the closed-loop points get a modelled duration.
    const Run sim = cli({u"run"_qs, m_demo, u"--plan-only"_qs});
    QCOMPARE(sim.code, 0);
    QVERIFY2(sim.out.contains(u"estimated load time: ≈ "_qs), qPrintable(sim.out));
    QVERIFY(!QFile::exists(m_dir.filePath(u"history.sqlite"_qs)));
    // --out DIR: the plan is also written as DIR/plan.json (the same JSON as --json prints).
    const QString dir = m_dir.filePath(u"plan-out"_qs);
    const Run written = cli({u"run"_qs, m_demo, u"--plan-only"_qs, u"--out"_qs, dir});
    QCOMPARE(written.code, 0);
    const QJsonObject fromFile =
        QJsonDocument::fromJson(readTextFile(dir + u"/plan.json"_qs).toUtf8()).object();
    QCOMPARE(fromFile, planJson({}));
    QCOMPARE(QDir(dir).entryList(QDir::Files), QStringList{u"plan.json"_qs});
}

void TestCliShard::planOnlyJson()
{
    const QJsonObject j = planJson({});
    QCOMPARE(j[u"schema"_qs].toString(), u"throughline.plan/1"_qs);
    QCOMPARE(j[u"plan_id"_qs].toString().size(), 16);
    const QJsonArray scenarios = j[u"scenarios"_qs].toArray();
    QCOMPARE(scenarios.size(), 2);
    const QJsonArray points = scenarios[0].toObject()[u"points"_qs].toArray();
    QCOMPARE(points.size(), 3);
    QCOMPARE(points[2].toObject()[u"load"_qs].toObject()[u"concurrency"_qs].toInt(), 16);
    QCOMPARE(points[2].toObject()[u"requests"_qs].toObject()[u"measured"_qs].toInt(), 160);
    QVERIFY(points[2].toObject()[u"estimated_s"_qs].toDouble() > 0);
    const QJsonObject totals = j[u"totals"_qs].toObject();
    QCOMPARE(totals[u"points"_qs].toInt(), 6);
    QCOMPARE(totals[u"requests"_qs].toInt(), 2 * (11 + 44 + 176));
    // The plan id is the same for every shard of one plan and changes with the plan.
    const QJsonObject s0 = planJson({u"--shard"_qs, u"0/2"_qs});
    const QJsonObject s1 = planJson({u"--shard"_qs, u"1/2"_qs});
    QCOMPARE(s0[u"plan_id"_qs].toString(), s1[u"plan_id"_qs].toString());
    QVERIFY(s0[u"plan_id"_qs].toString() != j[u"plan_id"_qs].toString());
    // --start-at within the next 24 h (further is refused as a likely typo).
    QDateTime start = QDateTime::currentDateTimeUtc().addSecs(3600);
    start.setTime(QTime(start.time().hour(), start.time().minute(), start.time().second()));
    const QJsonObject timed = planJson({u"--shard"_qs, u"1/2"_qs, u"--start-at"_qs,
                                        start.toString(Qt::ISODate), u"--point-slot"_qs, u"2.5"_qs});
    QVERIFY(timed[u"plan_id"_qs].toString() != s1[u"plan_id"_qs].toString());
    QCOMPARE(timed[u"schedule"_qs].toObject()[u"point_slot_s"_qs].toDouble(), 2.5);
    QCOMPARE(timed[u"schedule"_qs].toObject()[u"start_at"_qs].toString(), start.toString(Qt::ISODateWithMs));
    const Run far =
        cli({u"run"_qs, m_demo, u"--plan-only"_qs, u"--start-at"_qs, start.addDays(2).toString(Qt::ISODate)});
    QCOMPARE(far.code, 2);
    QVERIFY2(far.err.contains(u"is more than 24 h away"_qs), qPrintable(far.err));
}

// Over N shards every point's concurrency and request budget add up to the unsharded plan; points with
// C < N run on shards 0…C−1 only.
void TestCliShard::planSharesAddUp()
{
    const QJsonObject whole = planJson({});
    for (int n : {2, 3, 5}) {
        std::vector<QJsonObject> shards;
        for (int i = 0; i < n; ++i)
            shards.push_back(planJson({u"--shard"_qs, QStringLiteral("%1/%2").arg(i).arg(n)}));
        int requestsOnShards = 0;
        for (const QJsonObject &s : shards)
            requestsOnShards += s[u"totals"_qs].toObject()[u"requests_on_shard"_qs].toInt();
        QCOMPARE(requestsOnShards, whole[u"totals"_qs].toObject()[u"requests"_qs].toInt());
        const QJsonArray scenarios = whole[u"scenarios"_qs].toArray();
        for (qsizetype s = 0; s < scenarios.size(); ++s) {
            const QJsonArray points = scenarios[s].toObject()[u"points"_qs].toArray();
            for (qsizetype k = 0; k < points.size(); ++k) {
                const int c = points[k].toObject()[u"load"_qs].toObject()[u"concurrency"_qs].toInt();
                int sum = 0;
                for (int i = 0; i < n; ++i) {
                    const QJsonObject sp = shards[static_cast<std::size_t>(i)][u"scenarios"_qs]
                                               .toArray()[s]
                                               .toObject()[u"points"_qs]
                                               .toArray()[k]
                                               .toObject()[u"shard"_qs]
                                               .toObject();
                    const bool runs = sp[u"runs"_qs].toBool();
                    QCOMPARE(runs, i < c);
                    if (runs)
                        sum += sp[u"load"_qs].toObject()[u"concurrency"_qs].toInt();
                }
                QCOMPARE(sum, c);
            }
        }
    }
}

// Open loop: each of N shards sends a Poisson stream of λ/N for the whole schedule (same length, not N times
// longer, as deriving it from the request count would give).
void TestCliShard::planOpenLoopRates()
{
    QString text = readTextFile(m_demo);
    text.replace(u"\"mode\": \"closed\""_qs,
                 u"\"mode\": \"open\", \"rates\": [3, 12], \"point_duration_s\": 40, \"warmup_s\": 4"_qs);
    const QString path = m_dir.filePath(u"open.json"_qs);
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text.toUtf8());
    f.close();
    const Run r = cli({u"run"_qs, path, u"--plan-only"_qs, u"--json"_qs, u"--shard"_qs, u"2/4"_qs});
    QVERIFY2(r.code == 0, qPrintable(r.err));
    const QJsonObject plan = QJsonDocument::fromJson(r.out.toUtf8()).object();
    const QJsonArray points = plan[u"scenarios"_qs].toArray()[0].toObject()[u"points"_qs].toArray();
    QCOMPARE(points.size(), 2);
    const QJsonObject p = points[1].toObject();
    QCOMPARE(p[u"load"_qs].toObject()[u"rate"_qs].toDouble(), 12.0);
    QCOMPARE(p[u"shard"_qs].toObject()[u"load"_qs].toObject()[u"rate"_qs].toDouble(), 3.0);
    QCOMPARE(p[u"shard"_qs].toObject()[u"runs"_qs].toBool(), true);
    QCOMPARE(p[u"schedule_s"_qs].toObject()[u"measured"_qs].toDouble(), 40.0);
    QCOMPARE(p[u"requests"_qs].toObject()[u"measured"_qs].toInt(), 480); // 12/s × 40 s
    QCOMPARE(p[u"shard"_qs].toObject()[u"requests"_qs].toObject()[u"measured"_qs].toInt(), 120); // 3/s × 40 s
    // Wall-clock length at the demo's time scale 20: (4 + 40) s / 20.
    QCOMPARE(p[u"estimate"_qs].toString(), u"schedule"_qs);
    QVERIFY(std::abs(p[u"estimated_s"_qs].toDouble() - 2.2) < 1e-9);
}

void TestCliShard::badShard_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("message");
    QTest::newRow("0/0") << QStringList{u"--shard"_qs, u"0/0"_qs}
                         << u"--shard: shard count must be 1…4096"_qs;
    QTest::newRow("i = N") << QStringList{u"--shard"_qs, u"2/2"_qs}
                           << u"--shard: shard index 2 is out of range for 2 shards (0-based: 0…1)"_qs;
    QTest::newRow("i > N") << QStringList{u"--shard"_qs, u"5/2"_qs} << u"--shard: shard index 5"_qs;
    QTest::newRow("x/y") << QStringList{u"--shard"_qs, u"x/y"_qs}
                         << u"--shard: expected i/N with whole numbers"_qs;
    QTest::newRow("no slash") << QStringList{u"--shard"_qs, u"1"_qs} << u"--shard: expected i/N"_qs;
    QTest::newRow("slot without start") << QStringList{u"--shard"_qs, u"0/2"_qs, u"--point-slot"_qs, u"3"_qs}
                                        << u"--point-slot needs --shard i/N and --start-at"_qs;
    QTest::newRow("bad slot") << QStringList{u"--point-slot"_qs, u"-1"_qs}
                              << u"--point-slot: expected a positive number of seconds, got '-1'"_qs;
    QTest::newRow("bad start") << QStringList{u"--start-at"_qs, u"tomorrow"_qs}
                               << u"--start-at: expected an ISO 8601 time with a zone"_qs;
    QTest::newRow("zone-less start") << QStringList{u"--start-at"_qs, u"2030-01-01T00:00:00"_qs}
                                     << u"--start-at: expected an ISO 8601 time with a zone"_qs;
}

void TestCliShard::badShard()
{
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    const Run r = cli(QStringList{u"run"_qs, m_demo} + args);
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains(message), qPrintable(r.err));
    QVERIFY(!QFile::exists(m_dir.filePath(u"history.sqlite"_qs))); // nothing ran
}

// Bisection picks each point from the previous result: shards could not agree on their points.
void TestCliShard::searchCannotBeSharded()
{
    QString text = readTextFile(m_demo);
    text.replace(u"\"mode\": \"closed\""_qs, u"\"mode\": \"search\", \"c_min\": 1, \"c_max\": 16"_qs);
    const QString path = m_dir.filePath(u"search.json"_qs);
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text.toUtf8());
    f.close();
    const Run whole = cli({u"run"_qs, path, u"--plan-only"_qs});
    QCOMPARE(whole.code, 0);
    QVERIFY2(whole.out.contains(u"search: up to"_qs), qPrintable(whole.out + whole.err));
    const Run sharded = cli({u"run"_qs, path, u"--plan-only"_qs, u"--shard"_qs, u"0/2"_qs});
    QCOMPARE(sharded.code, 2);
    QVERIFY2(sharded.err.contains(u"cannot be split across shards"_qs), qPrintable(sharded.err));
}

// Two shards on the plan's time schedule against one server, merged, against one client running the same
// plan: same requests, start skew far below merge's 50 ms limit, output throughput within 3 % per point.
void TestCliShard::twoShardsMergeLikeOneClient()
{
    const QStringList common{u"run"_qs,        m_demo,   u"--only"_qs,      u"phase=Chat"_qs,
                             u"--endpoint"_qs, m_simUrl, u"--no-history"_qs};
    const QString wholeDir = m_dir.filePath(u"whole"_qs);
    const Run whole = cli(common + QStringList{u"--out"_qs, wholeDir});
    // 0, 1 or 4: the demo's latency targets can fail, and the client can judge itself client_bound, on a
    // loaded machine (client delays × time scale); the throughput comparison below depends on neither.
    QVERIFY2(whole.code == 0 || whole.code == 1 || whole.code == 4, qPrintable(whole.out + whole.err));

    // Slot 5 s per point: the longest (C=16, 176 requests) takes ≈ 3 s at time scale 5.
    const QString startAt = QDateTime::currentDateTimeUtc().addMSecs(2500).toString(Qt::ISODateWithMs);
    QList<QProcess *> shards;
    for (int i = 0; i < 2; ++i)
        shards << startCli(common + QStringList{u"--shard"_qs, QStringLiteral("%1/2").arg(i),
                                                u"--start-at"_qs, startAt, u"--point-slot"_qs, u"5"_qs,
                                                u"--out"_qs,
                                                m_dir.filePath(QStringLiteral("shard-%1").arg(i))});
    for (QProcess *p : shards) {
        const Run r = finishCliProcess(p, 60000);
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(u"verdicts above cover this shard's share only"_qs), qPrintable(r.out));
    }
    const QString merged = m_dir.filePath(u"merged.tlrun"_qs);
    const Run m = cli({u"merge"_qs, m_dir.filePath(u"shard-0/run.tlrun"_qs),
                       m_dir.filePath(u"shard-1/run.tlrun"_qs), u"--out"_qs, merged, u"--json"_qs});
    QVERIFY2(m.code == 0 || m.code == 1 || m.code == 4,
             qPrintable(m.out + m.err)); // merge judges: exit codes as `run`
    const QJsonObject report = QJsonDocument::fromJson(m.out.toUtf8()).object();
    QCOMPARE(report[u"shards"_qs].toInt(), 2);
    QCOMPARE(report[u"points"_qs].toInt(), 3);
    QCOMPARE(report[u"requests"_qs].toInt(), 11 + 44 + 176); // the unsharded budget, split without loss
    QVERIFY2(report[u"max_skew_ms"_qs].toDouble() < 50, qPrintable(m.out));

    const QString exported = m_dir.filePath(u"merged.json"_qs);
    const Run e = cli({u"export"_qs, merged, u"--format"_qs, u"json"_qs, u"--out"_qs, exported});
    QVERIFY2(e.code == 0, qPrintable(e.err));
    const QJsonObject mj = QJsonDocument::fromJson(readTextFile(exported).toUtf8()).object();
    const QJsonObject wj =
        QJsonDocument::fromJson(readTextFile(wholeDir + u"/results.json"_qs).toUtf8()).object();
    const QJsonArray mp = mj[u"scenarios"_qs].toArray()[0].toObject()[u"points"_qs].toArray();
    const QJsonArray wp = wj[u"scenarios"_qs].toArray()[0].toObject()[u"points"_qs].toArray();
    const QJsonObject s0 =
        QJsonDocument::fromJson(readTextFile(m_dir.filePath(u"shard-0/results.json"_qs)).toUtf8()).object();
    const QJsonArray sp = s0[u"scenarios"_qs].toArray()[0].toObject()[u"points"_qs].toArray();
    QCOMPARE(mp.size(), 3);
    QCOMPARE(wp.size(), 3);
    for (qsizetype k = 0; k < 3; ++k) {
        const QJsonObject a = wp[k].toObject(), b = mp[k].toObject();
        // Merged points carry the whole campaign's load, not one shard's share.
        QCOMPARE(b[u"load"_qs].toObject()[u"concurrency"_qs].toInt(),
                 a[u"load"_qs].toObject()[u"concurrency"_qs].toInt());
        QCOMPARE(b[u"merge"_qs].toObject()[u"shards"_qs].toInt(), k == 0 ? 1 : 2); // C=1 runs on shard 0 only
        const double one = a[u"metrics"_qs].toObject()[u"output_tps"_qs].toDouble();
        const double two = b[u"metrics"_qs].toObject()[u"output_tps"_qs].toDouble();
        qInfo("C=%d: one client %.1f tok/s, two shards merged %.1f tok/s (%+.2f %%)",
              a[u"load"_qs].toObject()[u"concurrency"_qs].toInt(), one, two, (two / one - 1) * 100);
        QVERIFY(one > 0);
        if (k == 0) {
            // C=1 is not split (shard 0 alone): merge's recomputation must equal shard 0's own aggregate.
            // Against the separate unsharded client it is only a repeatability check (10 requests: ±3 %
            // seen).
            const double own = sp[0].toObject()[u"metrics"_qs].toObject()[u"output_tps"_qs].toDouble();
            QVERIFY2(std::abs(two / own - 1) < 1e-9,
                     qPrintable(QStringLiteral("%1 vs %2").arg(two).arg(own)));
            QVERIFY2(std::abs(two / one - 1) < 0.10,
                     qPrintable(QStringLiteral("%1 vs %2").arg(one).arg(two)));
            continue;
        }
        // Split points: the bar, 3 % of one client.
        QVERIFY2(std::abs(two / one - 1) < 0.03, qPrintable(QStringLiteral("%1 vs %2").arg(one).arg(two)));
    }
}

QString TestCliShard::shardExpression(const QString &text)
{
    // Comment lines (the templates' explanations, #SBATCH directives) are not commands.
    QStringList code;
    for (const QString &line : text.split(u'\n'))
        if (!line.trimmed().startsWith(u'#'))
            code << line;
    static const QRegularExpression re(u"--shard\\s+\"?([^\"\\s]+)\"?"_qs);
    const auto matches = re.globalMatch(code.join(u'\n'));
    QStringList found;
    for (auto it = matches; it.hasNext();)
        found << it.next().captured(1);
    return found.size() == 1 ? found.front() : QString();
}

QString TestCliShard::shellExpand(const QString &expr, const QMap<QString, QString> &env)
{
    QProcess sh;
    QProcessEnvironment e;
    e.insert(u"PATH"_qs, u"/usr/bin:/bin"_qs);
    for (auto it = env.begin(); it != env.end(); ++it)
        e.insert(it.key(), it.value());
    sh.setProcessEnvironment(e);
    sh.start(u"/bin/sh"_qs, {u"-c"_qs, u"printf '%s' \""_qs + expr + u"\""_qs});
    if (!sh.waitForFinished(10000) || sh.exitCode() != 0)
        return {};
    return QString::fromUtf8(sh.readAllStandardOutput());
}

// For every task index: the shell expansion parses, names the right shard, and the CLI accepts it.
void TestCliShard::checkTemplateShards(const QString &expr, int n, const QString &indexVar,
                                       const QString &countVar)
{
    QVERIFY2(expr.contains(indexVar), qPrintable(expr));
    QVERIFY(n >= 2);
    int totalShare = 0;
    for (int i = 0; i < n; ++i) {
        const QString value =
            shellExpand(expr, {{indexVar, QString::number(i)}, {countVar, QString::number(n)}});
        const auto spec = ShardSelector::parse(value.toStdString());
        QVERIFY2(spec.ok(), qPrintable(value));
        QCOMPARE(spec->index, i);
        QCOMPARE(spec->count, n);
        totalShare += ShardSelector::share(16, *spec);
        if (i == 0 || i == n - 1) { // the CLI itself, with the expanded value (two are enough for time)
            const QJsonObject plan = planJson({u"--shard"_qs, value});
            QCOMPARE(plan[u"shard"_qs].toObject()[u"index"_qs].toInt(), i);
            QCOMPARE(plan[u"shard"_qs].toObject()[u"count"_qs].toInt(), n);
        }
    }
    QCOMPARE(totalShare, 16);
    // An index outside the array (e.g. a 1-based --array=1-N) is refused with the option named.
    const QString outside =
        shellExpand(expr, {{indexVar, QString::number(n)}, {countVar, QString::number(n)}});
    const Run r = cli({u"run"_qs, m_demo, u"--plan-only"_qs, u"--shard"_qs, outside});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains(u"--shard: shard index"_qs), qPrintable(r.err));
}

void TestCliShard::kubernetesTemplateShardExpression()
{
    const QString text =
        readTextFile(QStringLiteral(THROUGHLINE_SOURCE_DIR "/packaging/cluster/k8s-indexed-job.yaml"));
    QVERIFY(!text.isEmpty());
    QVERIFY(text.contains(u"completionMode: Indexed"_qs));
    // N appears three times and must agree: completions, parallelism (all shards at once) and SHARDS.
    const auto completions = QRegularExpression(u"\\n\\s*completions:\\s*(\\d+)"_qs).match(text);
    const auto parallelism = QRegularExpression(u"\\n\\s*parallelism:\\s*(\\d+)"_qs).match(text);
    const auto shards = QRegularExpression(u"name: SHARDS\\s*\\n\\s*value:\\s*\"(\\d+)\""_qs).match(text);
    QVERIFY(completions.hasMatch() && parallelism.hasMatch() && shards.hasMatch());
    const int n = completions.captured(1).toInt();
    QCOMPARE(parallelism.captured(1).toInt(), n);
    QCOMPARE(shards.captured(1).toInt(), n);
    const QString expr = shardExpression(text);
    QVERIFY2(!expr.isEmpty(), "exactly one --shard argument expected in k8s-indexed-job.yaml");
    checkTemplateShards(expr, n, u"JOB_COMPLETION_INDEX"_qs, u"SHARDS"_qs);
    for (const char *option : {"--start-at", "--point-slot", "--out"})
        QVERIFY2(text.contains(QLatin1String(option)), option);
}

void TestCliShard::slurmTemplateShardExpression()
{
    const QString text =
        readTextFile(QStringLiteral(THROUGHLINE_SOURCE_DIR "/packaging/cluster/slurm-array.sbatch"));
    QVERIFY(!text.isEmpty());
    const auto array = QRegularExpression(u"\\n#SBATCH --array=(\\d+)-(\\d+)\\s*\\n"_qs).match(text);
    QVERIFY2(array.hasMatch(), "#SBATCH --array=FIRST-LAST (unthrottled) expected");
    QCOMPARE(array.captured(1).toInt(), 0); // 0-based: task ids are shard indices
    const int n = array.captured(2).toInt() + 1;
    const QString expr = shardExpression(text);
    QVERIFY2(!expr.isEmpty(), "exactly one --shard argument expected in slurm-array.sbatch");
    checkTemplateShards(expr, n, u"SLURM_ARRAY_TASK_ID"_qs, u"SLURM_ARRAY_TASK_COUNT"_qs);
    // The script itself is valid shell.
    QProcess bash;
    bash.start(u"/bin/bash"_qs,
               {u"-n"_qs, QStringLiteral(THROUGHLINE_SOURCE_DIR "/packaging/cluster/slurm-array.sbatch")});
    QVERIFY(bash.waitForFinished(10000));
    QCOMPARE(bash.exitCode(), 0);
}

QTEST_GUILESS_MAIN(TestCliShard)
#include "tst_clishard.moc"
