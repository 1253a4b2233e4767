// The shipped Slurm template on a real (one-node, private) Slurm: `sbatch --array=0-3
// packaging/cluster/slurm-array.sbatch` against one throughline-sim on localhost, the merge as a dependent
// job exactly as packaging/cluster/README.md says, the merged bundle imported into a history file. Merged
// output throughput within 3 % of one client running the same campaign; percentiles from the merged raw
// samples. The same check fails on a deliberately broken copy of the template.
//
// The only overrides of the template are on the sbatch command line: --oversubscribe (the template asks for
// --exclusive nodes; four tasks share the one node here) — the README's "Trying it on a small test cluster".
#include "app/clitestprocess.h"
#include "app/demosimprocess.h"
#include "app/mergedsamples.h"
#include "slurmtestcluster.h"

#include "core/storage/historyreader.h"

#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace Throughline;

namespace {
constexpr int kShards = 4;
constexpr int kConcurrency = 16, kMultiplier = 20; // one point, 20 × C measured requests (≈ 6 s)
// START_AT this far ahead of sbatch: the scheduler starts four tasks in well under a second, but on a loaded
// 2-core machine a task's start has taken up to 6 s.
constexpr int kLeadMs = 8000;
const QString kTemplate = QStringLiteral(THROUGHLINE_SOURCE_DIR "/packaging/cluster/slurm-array.sbatch");
} // namespace

class TestSlurmArray : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void shippedTemplateRunsAndMerges();
    void brokenTemplateFails_data();
    void brokenTemplateFails();
    void cancelledTaskIsNamedThenResubmitted();
    void generatedScriptRuns();

private:
    // What a user does on the login node, in a fresh folder `tag`: submit the array, submit the merge as
    // a dependent job, wait, import the merged bundle. Returns "" when everything the README promises
    // holds, else what did not.
    QString submitAndCheck(const QString &script, const QString &tag);
    QString submitArray(const QString &script, const QString &work, const QString &startAt,
                        const QString &array, const QString &extraExport, QString *error);
    QString submitMerge(const QString &work, const QString &jid, QString *error);
    QString tasksEndedAs(const QString &work, const QString &jid, const QString &state);
    std::pair<QString, QString> mergeOutcome(const QString &work, const QString &mergeId);
    QJsonObject onlyPoint(const QString &resultsJson);
    CliRun cli(const QStringList &args, int timeoutMs = 60000);
    QProcessEnvironment userEnvironment() const;

    QTemporaryDir m_dir;
    SlurmTestCluster m_slurm;
    QString m_campaign;
    QProcess m_sim;
    QString m_simUrl;
    double m_wholeTps = 0;
};

CliRun TestSlurmArray::cli(const QStringList &args, int timeoutMs)
{
    return finishCliProcess(startCliProcess(this, m_dir.filePath(u"history.sqlite"_qs), args), timeoutMs);
}

QJsonObject TestSlurmArray::onlyPoint(const QString &resultsJson)
{
    const QJsonObject j = QJsonDocument::fromJson(readTextFile(resultsJson).toUtf8()).object();
    const QJsonArray points = j[u"scenarios"_qs].toArray()[0].toObject()[u"points"_qs].toArray();
    return points.size() == 1 ? points[0].toObject() : QJsonObject();
}

// The login node's environment: the build's bin folder first on PATH (sbatch --export=ALL hands it to the
// tasks), a private history database, no colours.
QProcessEnvironment TestSlurmArray::userEnvironment() const
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"PATH"_qs,
               QFileInfo(QStringLiteral(THROUGHLINE_CLI_PATH)).absolutePath() + u':' + env.value(u"PATH"_qs));
    env.insert(u"THROUGHLINE_DB"_qs, m_dir.filePath(u"history.sqlite"_qs));
    env.insert(u"NO_COLOR"_qs, u"1"_qs);
    return env;
}

void TestSlurmArray::initTestCase()
{
    QVERIFY(m_dir.isValid());
    const QString missing = SlurmTestCluster::missingExecutables();
    QVERIFY2(missing.isEmpty(), qPrintable(u"not installed: "_qs + missing +
                                           u" — run packaging/bootstrap.sh (slurm-wlm, munge)"_qs));
    QElapsedTimer t;
    t.start();
    QString error;
    QDir().mkpath(m_dir.filePath(u"slurm"_qs));
    QVERIFY2(m_slurm.start(m_dir.filePath(u"slurm"_qs), &error), qPrintable(error));
    qInfo("slurm: munged, slurmctld and slurmd up in %.1f s", static_cast<double>(t.elapsed()) / 1000.0);

    // The demo campaign reduced to one closed-loop point of its Chat phase (as tst_clishardmerge, which
    // selects it with --only; the template runs the whole campaign file).
    QString text = readTextFile(QStringLiteral(THROUGHLINE_SOURCE_DIR "/resources/campaigns/demo.json"));
    // Whatever the demo's load points and budget: one point of kMultiplier × C requests.
    static const QRegularExpression concurrencies(u"\"concurrencies\": \\[[0-9, ]*\\]"_qs),
        budget(u"\"request_(count|multiplier)\": [0-9.]+"_qs);
    QVERIFY(text.contains(concurrencies) && text.contains(budget));
    const QString reasoning = u",\n    { \"name\": \"Reasoning-short\", \"isl\": 256, \"osl\": 256 }"_qs;
    QVERIFY(text.contains(reasoning));
    text.remove(reasoning);
    text.replace(concurrencies, QStringLiteral("\"concurrencies\": [%1]").arg(kConcurrency));
    text.replace(budget, QStringLiteral("\"request_multiplier\": %1").arg(kMultiplier));
    m_campaign = m_dir.filePath(u"one-point.json"_qs);
    QFile f(m_campaign);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text.toUtf8());
    f.close();
    m_simUrl = startDemoSim(m_sim, &error);
    QVERIFY2(!m_simUrl.isEmpty(), qPrintable(error));

    // The reference: one client, the whole load, same campaign and server.
    const QString wholeDir = m_dir.filePath(u"whole"_qs);
    const CliRun whole =
        cli({u"run"_qs, m_campaign, u"--endpoint"_qs, m_simUrl, u"--no-history"_qs, u"--out"_qs, wholeDir});
    QVERIFY2(whole.code == 0 || whole.code == 1 || whole.code == 4, qPrintable(whole.out + whole.err));
    m_wholeTps =
        onlyPoint(wholeDir + u"/results.json"_qs)[u"metrics"_qs].toObject()[u"output_tps"_qs].toDouble();
    QVERIFY(m_wholeTps > 0);
}

void TestSlurmArray::cleanupTestCase()
{
    m_slurm.stop();
    stopDemoSim(m_sim);
}

// sbatch as on the login node, from `work`: the template with `array` (e.g. "0-3"), the common START_AT and
// the small test cluster's one override; `extraExport` adds variables (",SHARDS=4"). Returns the job id, or
// "" with the reason in `error`.
QString TestSlurmArray::submitArray(const QString &script, const QString &work, const QString &startAt,
                                    const QString &array, const QString &extraExport, QString *error)
{
    const SlurmTestCluster::Command submit = m_slurm.run(
        u"sbatch"_qs,
        {u"--parsable"_qs, u"--array="_qs + array, u"--oversubscribe"_qs,
         u"--export=ALL,CAMPAIGN="_qs + m_campaign + u",START_AT="_qs + startAt +
             u",POINT_SLOT_S=10,RESULTS="_qs + work + u"/run1,ENDPOINT="_qs + m_simUrl + extraExport,
         script},
        userEnvironment(), work);
    if (submit.code != 0)
        *error = u"sbatch of the array failed: "_qs + submit.err;
    return submit.code == 0 ? submit.out.trimmed() : QString();
}

// The README's merge step, word for word ($PWD = the submission folder), after job `jid`.
QString TestSlurmArray::submitMerge(const QString &work, const QString &jid, QString *error)
{
    const QString results = work + u"/run1"_qs;
    const SlurmTestCluster::Command merge =
        m_slurm.run(u"sbatch"_qs,
                    {u"--parsable"_qs, u"--dependency=afterany:"_qs + jid, u"--wrap"_qs,
                     u"throughline-cli merge "_qs + results + u"/shard-*/run.tlrun --out "_qs + results +
                         u"/merged.tlrun"_qs},
                    userEnvironment(), work);
    if (merge.code != 0)
        *error = u"sbatch of the merge failed: "_qs + merge.err;
    return merge.code == 0 ? merge.out.trimmed() : QString();
}

// "" when every task of `jid` ended in `state`; else the tasks that did not, with the end of their logs.
QString TestSlurmArray::tasksEndedAs(const QString &work, const QString &jid, const QString &state)
{
    if (!m_slurm.waitForEnd(jid, 90000))
        return u"array job "_qs + jid + u" did not end within 90 s"_qs;
    QStringList problems;
    for (const SlurmTestCluster::JobState &task : m_slurm.jobStates(jid))
        if (task.state != state)
            problems << QStringLiteral("array task %1: %2 (exit %3): %4")
                            .arg(task.arrayTask)
                            .arg(task.state, task.exitCode,
                                 readTextFile(work +
                                              QStringLiteral("/throughline-shard-%1.log").arg(task.arrayTask))
                                     .right(600));
    return problems.join(u'\n');
}

// The merge job's exit code (e.g. "0:0") and log once it ended; "" exit code on timeout.
std::pair<QString, QString> TestSlurmArray::mergeOutcome(const QString &work, const QString &mergeId)
{
    if (!m_slurm.waitForEnd(mergeId, 60000))
        return {QString(), u"merge job did not end within 60 s"_qs};
    const auto state = m_slurm.jobStates(mergeId);
    return {state.empty() ? QString() : state[0].exitCode,
            readTextFile(work + u"/slurm-"_qs + mergeId + u".out"_qs)};
}

QString TestSlurmArray::submitAndCheck(const QString &script, const QString &tag)
{
    const QString work = m_dir.filePath(tag);
    QDir().mkpath(work);
    const QString results = work + u"/run1"_qs;
    // START_AT a few seconds ahead: time for sbatch, the scheduler and the tasks' start on this machine.
    const QString startAt = QDateTime::currentDateTimeUtc().addMSecs(kLeadMs).toString(Qt::ISODateWithMs);
    QString error;
    const QString jid = submitArray(script, work, startAt, u"0-3"_qs, QString(), &error);
    if (jid.isEmpty())
        return error;
    const QString mergeId = submitMerge(work, jid, &error);
    if (mergeId.isEmpty())
        return error;
    if (const QString problems = tasksEndedAs(work, jid, u"COMPLETED"_qs); !problems.isEmpty())
        return problems;
    const auto [mergeExit, mergeLog] = mergeOutcome(work, mergeId);
    // Exit 0 (pass) or 1 (a latency target missed on a loaded machine): both are a finished merge.
    if (mergeExit != u"0:0"_qs && mergeExit != u"1:0"_qs)
        return u"merge job failed: "_qs + mergeExit + u": "_qs + mergeLog;
    if (!mergeLog.contains(QStringLiteral("merged %1 shards").arg(kShards)))
        return u"merge log: "_qs + mergeLog;

    // Into the history file, as the README's last step.
    const QString merged = results + u"/merged.tlrun"_qs;
    const CliRun imp = cli({u"import"_qs, merged, u"--json"_qs});
    if (imp.code != 0)
        return u"import failed: "_qs + imp.err;
    const QString runId = QJsonDocument::fromJson(imp.out.toUtf8()).object()[u"run_id"_qs].toString();
    HistoryReader history;
    if (auto s = history.open(m_dir.filePath(u"history.sqlite"_qs).toStdString()); !s)
        return u"history: "_qs + QString::fromStdString(s.error().message);
    auto detail = history.runDetail(runId.toStdString());
    if (!detail)
        return u"imported run "_qs + runId + u": "_qs + QString::fromStdString(detail.error().message);
    if (detail->summary.source != "merge" || detail->points.size() != 1)
        return QStringLiteral("imported run: source '%1', %2 points")
            .arg(QString::fromStdString(detail->summary.source))
            .arg(detail->points.size());

    // The merged point: all four shares, on schedule, no skew; throughput as one client's.
    const QString exported = work + u"/merged.json"_qs;
    if (const CliRun e = cli({u"export"_qs, merged, u"--format"_qs, u"json"_qs, u"--out"_qs, exported});
        e.code != 0)
        return u"export failed: "_qs + e.err;
    const QJsonObject point = onlyPoint(exported);
    const QJsonObject mergeInfo = point[u"merge"_qs].toObject();
    if (mergeInfo[u"shards"_qs].toInt() != kShards ||
        mergeInfo[u"aligned_on"_qs].toString() != u"schedule"_qs)
        return u"merged point: "_qs +
               QString::fromUtf8(QJsonDocument(mergeInfo).toJson(QJsonDocument::Compact));
    const QJsonArray flags = point[u"validity"_qs].toObject()[u"flags"_qs].toArray();
    if (flags.contains(u"shard_skew"_qs) || mergeInfo[u"skew_ms"_qs].toDouble() > 50)
        return QStringLiteral("shard start skew %1 ms").arg(mergeInfo[u"skew_ms"_qs].toDouble());
    if (point[u"load"_qs].toObject()[u"concurrency"_qs].toInt() != kConcurrency)
        return u"merged concurrency "_qs +
               QString::number(point[u"load"_qs].toObject()[u"concurrency"_qs].toInt());
    const double tps = point[u"metrics"_qs].toObject()[u"output_tps"_qs].toDouble();
    qInfo("%s: one client %.1f tok/s, %d Slurm array tasks merged %.1f tok/s (%+.2f %%), start skew %.1f ms",
          qPrintable(tag), m_wholeTps, kShards, tps, (tps / m_wholeTps - 1) * 100,
          mergeInfo[u"skew_ms"_qs].toDouble());
    if (std::abs(tps / m_wholeTps - 1) >= 0.03)
        return QStringLiteral("merged throughput %1 tok/s vs one client %2 tok/s").arg(tps).arg(m_wholeTps);

    // Percentiles from the merged raw samples.
    const QString csv = work + u"/requests.csv"_qs;
    if (const CliRun r =
            cli({u"export"_qs, merged, u"--format"_qs, u"csv"_qs, u"--requests"_qs, u"--out"_qs, csv});
        r.code != 0)
        return u"export --requests failed: "_qs + r.err;
    const MergedSamples samples = mergedTtftSamples(readTextFile(csv));
    if (!samples.error.isEmpty())
        return samples.error;
    if (samples.measured != static_cast<std::size_t>(kConcurrency * kMultiplier))
        return QStringLiteral("%1 measured requests merged, expected %2")
            .arg(samples.measured)
            .arg(kConcurrency * kMultiplier);
    const QJsonObject ttft = point[u"metrics"_qs].toObject()[u"ttft_ms"_qs].toObject();
    if (ttft[u"n"_qs].toInt() != static_cast<int>(samples.ttftMs.size()))
        return QStringLiteral("ttft n %1 vs %2 merged samples")
            .arg(ttft[u"n"_qs].toInt())
            .arg(samples.ttftMs.size());
    for (const auto &[key, p] : {std::pair{u"p50"_qs, 0.5}, std::pair{u"p90"_qs, 0.9}}) {
        const double expect = percentileSorted(samples.ttftMs, p);
        if (std::abs(ttft[key].toDouble() - expect) >= 0.01)
            return QStringLiteral("ttft %1 %2 ms, merged samples give %3 ms")
                .arg(key)
                .arg(ttft[key].toDouble())
                .arg(expect);
    }
    return {};
}

void TestSlurmArray::shippedTemplateRunsAndMerges()
{
    QElapsedTimer t;
    t.start();
    const QString failure = submitAndCheck(kTemplate, u"shipped"_qs);
    qInfo("shipped template: submit → merged and imported in %.1f s",
          static_cast<double>(t.elapsed()) / 1000.0);
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
}

// Mistakes a template edit could make; the check above must catch each.
void TestSlurmArray::brokenTemplateFails_data()
{
    QTest::addColumn<QString>("from");
    QTest::addColumn<QString>("to");
    QTest::addColumn<QString>("expected"); // in the failure text
    // 1-based shard index: task 3 asks for shard 4/4 (refused), shard 0 never runs.
    QTest::newRow("one-based index") << u"--shard \"${SLURM_ARRAY_TASK_ID}/"_qs
                                     << u"--shard \"$((SLURM_ARRAY_TASK_ID + 1))/"_qs
                                     << u"array task 3: FAILED (exit 2:0)"_qs;
    // No common start: every task refuses --point-slot without --start-at.
    QTest::newRow("no start time") << u"--start-at \"$START_AT\" "_qs << QString()
                                   << u"array task 0: FAILED (exit 2:0)"_qs;
}

void TestSlurmArray::brokenTemplateFails()
{
    QFETCH(QString, from);
    QFETCH(QString, to);
    QFETCH(QString, expected);
    QString text = readTextFile(kTemplate);
    QVERIFY(text.contains(from));
    text.replace(from, to);
    const QString broken = m_dir.filePath(u"broken.sbatch"_qs);
    QFile f(broken);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text.toUtf8());
    f.close();
    const QString failure = submitAndCheck(
        broken, u"broken-"_qs + QString::fromLatin1(QTest::currentDataTag()).replace(u' ', u'-'));
    qInfo("broken template: %s", qPrintable(failure.left(300)));
    QVERIFY2(!failure.isEmpty(), "a broken template passed the check");
    QVERIFY2(failure.contains(expected), qPrintable(failure));
}

// `scancel` of one array task mid-run: the README's merge job refuses, naming the shard; the index
// resubmitted alone (same START_AT, SHARDS=4 because a one-task array has SLURM_ARRAY_TASK_COUNT=1) runs
// after its slot, and the merge then completes with that shard flagged late in the merged bundle.
void TestSlurmArray::cancelledTaskIsNamedThenResubmitted()
{
    const QString work = m_dir.filePath(u"cancel"_qs);
    QDir().mkpath(work);
    const QDateTime start = QDateTime::currentDateTimeUtc().addMSecs(kLeadMs);
    const QString startAt = start.toString(Qt::ISODateWithMs);
    QString error;
    const QString jid = submitArray(kTemplate, work, startAt, u"0-3"_qs, QString(), &error);
    QVERIFY2(!jid.isEmpty(), qPrintable(error));
    const QString mergeId = submitMerge(work, jid, &error);
    QVERIFY2(!mergeId.isEmpty(), qPrintable(error));
    // Mid-run: 2 s into the ≈ 6 s point.
    QTRY_VERIFY_WITH_TIMEOUT(QDateTime::currentDateTimeUtc() > start.addMSecs(2000), 20000);
    const SlurmTestCluster::Command cancel = m_slurm.run(u"scancel"_qs, {jid + u"_2"_qs});
    QVERIFY2(cancel.code == 0, qPrintable(cancel.err));
    QVERIFY(m_slurm.waitForEnd(jid, 90000));
    for (const SlurmTestCluster::JobState &task : m_slurm.jobStates(jid))
        QCOMPARE(task.state, task.arrayTask == 2 ? u"CANCELLED"_qs : u"COMPLETED"_qs);
    const auto [refusedExit, refusedLog] = mergeOutcome(work, mergeId);
    qInfo("merge after scancel of task 2: exit %s: %s", qPrintable(refusedExit),
          qPrintable(refusedLog.trimmed()));
    QCOMPARE(refusedExit, u"2:0"_qs);
    QVERIFY2(refusedLog.contains(u"cannot merge: shard 2"_qs), qPrintable(refusedLog));
    QVERIFY(!QFile::exists(work + u"/run1/merged.tlrun"_qs));

    // A user who cannot rerun index 2 merges the other three on purpose: a partial result, named as such.
    const QString partial = work + u"/partial.tlrun"_qs;
    QStringList partialArgs{u"merge"_qs};
    for (const char *i : {"0", "1", "3"})
        partialArgs << work + u"/run1/shard-"_qs + QLatin1String(i) + u"/run.tlrun"_qs;
    partialArgs << u"--allow-missing"_qs << u"--out"_qs << partial;
    const CliRun p = cli(partialArgs);
    QCOMPARE(p.code, 4); // judged invalid, as `run` exits for invalid points
    QVERIFY2(p.err.contains(u"partial merge: shard 2/4 missing"_qs), qPrintable(p.err));
    const QString partialJson = work + u"/partial.json"_qs;
    const CliRun pe = cli({u"export"_qs, partial, u"--format"_qs, u"json"_qs, u"--out"_qs, partialJson});
    QVERIFY2(pe.code == 0, qPrintable(pe.err));
    const QJsonObject partialPoint = onlyPoint(partialJson);
    QVERIFY(partialPoint[u"validity"_qs].toObject()[u"flags"_qs].toArray().contains(u"shard_missing"_qs));
    QCOMPARE(partialPoint[u"merge"_qs].toObject()[u"missing_shards"_qs].toArray(), QJsonArray{u"2/4"_qs});
    QCOMPARE(partialPoint[u"merge"_qs].toObject()[u"shards"_qs].toInt(), 3);

    // Resubmit index 2 alone, then merge again.
    const QString again = submitArray(kTemplate, work, startAt, u"2"_qs, u",SHARDS=4"_qs, &error);
    QVERIFY2(!again.isEmpty(), qPrintable(error));
    const QString mergeAgain = submitMerge(work, again, &error);
    QVERIFY2(!mergeAgain.isEmpty(), qPrintable(error));
    const QString problems = tasksEndedAs(work, again, u"COMPLETED"_qs);
    QVERIFY2(problems.isEmpty(), qPrintable(problems));
    const auto [mergedExit, mergedLog] = mergeOutcome(work, mergeAgain);
    qInfo("merge after resubmitting task 2: exit %s: %s", qPrintable(mergedExit),
          qPrintable(mergedLog.trimmed()));
    // Complete, and judged invalid (exit 4, as `run`): shard 2 ran seconds after its slot.
    QCOMPARE(mergedExit, u"4:0"_qs);
    QVERIFY2(mergedLog.contains(QStringLiteral("merged %1 shards").arg(kShards)), qPrintable(mergedLog));
    QVERIFY2(mergedLog.contains(u"shard 2/4 started"_qs), qPrintable(mergedLog));

    const QString exported = work + u"/merged.json"_qs;
    const CliRun e = cli(
        {u"export"_qs, work + u"/run1/merged.tlrun"_qs, u"--format"_qs, u"json"_qs, u"--out"_qs, exported});
    QVERIFY2(e.code == 0, qPrintable(e.err));
    const QJsonObject point = onlyPoint(exported);
    const QJsonObject validity = point[u"validity"_qs].toObject();
    QVERIFY2(validity[u"flags"_qs].toArray().contains(u"shard_late"_qs),
             QJsonDocument(validity).toJson().constData());
    QCOMPARE(validity[u"valid"_qs].toBool(), false);
    const QJsonObject merge = point[u"merge"_qs].toObject();
    QVERIFY2(merge[u"late_shards"_qs].toArray().contains(u"2/4"_qs),
             QJsonDocument(merge).toJson().constData());
    // Shard 2's lateness: the seconds between START_AT and its resubmitted start, the largest of the four.
    const QJsonObject lateness = merge[u"lateness_ms"_qs].toObject();
    QCOMPARE(lateness.size(), kShards);
    QVERIFY2(lateness[u"2/4"_qs].toDouble() > 2000, QJsonDocument(merge).toJson().constData());
    for (const char *other : {"0/4", "1/4", "3/4"})
        QVERIFY2(lateness[QLatin1String(other)].toDouble() < lateness[u"2/4"_qs].toDouble(),
                 QJsonDocument(merge).toJson().constData());
}

// The files `throughline-cli cluster` writes for this campaign, submitted as their header says
// (`sh submit-slurm.sh`): the array and its merge job run, and the merged bundle holds all four shards.
// The small test cluster's --oversubscribe goes through --sbatch-options.
void TestSlurmArray::generatedScriptRuns()
{
    const QString work = m_dir.filePath(u"generated"_qs);
    const QString results = work + u"/run1"_qs;
    const QString startAt = QDateTime::currentDateTimeUtc().addMSecs(kLeadMs).toString(Qt::ISODateWithMs);
    const CliRun gen = cli({u"cluster"_qs, m_campaign, u"--scheduler"_qs, u"slurm"_qs, u"--shards"_qs,
                            u"4"_qs, u"--point-slot"_qs, u"10"_qs, u"--start-at"_qs, startAt,
                            u"--endpoint"_qs, m_simUrl, u"--results"_qs, results, u"--bin-dir"_qs,
                            QFileInfo(QStringLiteral(THROUGHLINE_CLI_PATH)).absolutePath(),
                            u"--sbatch-options=--oversubscribe"_qs, u"--out"_qs, work});
    QVERIFY2(gen.code == 0, qPrintable(gen.out + gen.err));
    QVERIFY2(gen.out.contains(u"per shard: 4, 4, 4, 4"_qs), qPrintable(gen.out));
    const SlurmTestCluster::Command submit = m_slurm.run(u"sh"_qs, {work + u"/submit-slurm.sh"_qs});
    QVERIFY2(submit.code == 0, qPrintable(submit.out + submit.err));
    static const QRegularExpression ids(u"array job (\\d+) .* merge job (\\d+)"_qs);
    const auto m = ids.match(submit.out);
    QVERIFY2(m.hasMatch(), qPrintable(submit.out));
    const QString problems = tasksEndedAs(work, m.captured(1), u"COMPLETED"_qs);
    QVERIFY2(problems.isEmpty(), qPrintable(problems));
    QVERIFY(m_slurm.waitForEnd(m.captured(2), 60000));
    const QString mergeLog = readTextFile(QDir(results).filePath(u"merge-"_qs + m.captured(2) + u".log"_qs));
    QVERIFY2(mergeLog.contains(QStringLiteral("merged %1 shards").arg(kShards)), qPrintable(mergeLog));
    QVERIFY(QFile::exists(results + u"/merged.tlrun"_qs));
}

QTEST_GUILESS_MAIN(TestSlurmArray)
#include "tst_slurmarray.moc"
