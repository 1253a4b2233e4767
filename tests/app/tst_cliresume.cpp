// `throughline-cli run` records as it goes and `run --resume RUN` continues an interrupted run, end to end
// with the built executable, a real history file and the in-process simulated endpoint: a run killed with
// SIGKILL after its first point was committed leaves a consistent database whose run every reader (`runs`,
// `runs --filter status=crashed`, `show`) lists 'crashed' at once — before any writer opened the file — and
// the next writer marks 'crashed' with that point intact; --resume runs only the missing points into the same
// run (each point exactly once, the first point's rows untouched, request seqs unique) and completes it, its
// requests.csv listing the kept point's requests too; the first point's telemetry survives the kill; a run
// stopped with SIGINT (cancelled) resumes too; completed, unknown, still-running and changed-campaign runs
// are refused.
#include "core/storage/historyreader.h"
#include "core/storage/sqlitedb.h"
#include "core/storage/storagewriter.h"

#include "clitestprocess.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <sys/types.h>

using namespace Throughline;

namespace {

constexpr int kScenarios = 2;
constexpr int kPointsPerScenario = 3;

std::int64_t queryInt(const std::string &db, const std::string &sql)
{
    SqliteDb c;
    if (!c.open(db, SqliteDb::Mode::ReadOnly))
        return -1;
    auto v = c.queryInt(sql, -1);
    return v ? *v : -1;
}

std::string queryText(const std::string &db, const std::string &sql)
{
    SqliteDb c;
    if (!c.open(db, SqliteDb::Mode::ReadOnly))
        return {};
    auto st = c.prepare(sql);
    if (!st || st->step() != 100)
        return {};
    return st->colText(0);
}

// ARCHITECTURE.md "Exit codes" from the verdicts of a results.json: 1 any fail, else 4 any invalid, else 0.
int exitCodeOf(const QJsonObject &results)
{
    bool invalid = false;
    for (const QJsonValue &s : results.value(u"scenarios"_qs).toArray()) {
        const QString v = s.toObject().value(u"verdict"_qs).toObject().value(u"status"_qs).toString();
        if (v == u"fail"_qs)
            return 1;
        invalid = invalid || v == u"invalid"_qs;
    }
    return invalid ? 4 : 0;
}

} // namespace

class TestCliResume : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void killedRunResumes();
    void interruptedRunResumes();
    void refusals();

private:
    QProcess *startRun(const QStringList &extra);
    CliRun cli(const QStringList &args, int timeoutMs = 90000);
    // Polls the history read-only until a run has `points` committed points (or the process ended).
    bool waitForCommittedPoints(QProcess *p, int points, QString *uuid);
    // Every planned point exactly once and completed, seqs unique, integrity ok, run completed.
    void checkComplete(const QString &uuid);

    QTemporaryDir m_dir;
    QString m_campaign;
    std::string m_db;
};

void TestCliResume::initTestCase()
{
    QVERIFY(m_dir.isValid());
    // A copy: the run stores its path, and refusals() changes it.
    m_campaign = m_dir.filePath(u"campaign.json"_qs);
    QVERIFY(
        QFile::copy(QStringLiteral(THROUGHLINE_TEST_DATA_DIR "/storage/resume-campaign.json"), m_campaign));
    QFile::setPermissions(m_campaign, QFile::ReadOwner | QFile::WriteOwner);
    m_db = m_dir.filePath(u"history.sqlite"_qs).toStdString();
}

QProcess *TestCliResume::startRun(const QStringList &extra)
{
    return startCliProcess(this, QString::fromStdString(m_db), QStringList{u"run"_qs} + extra);
}

CliRun TestCliResume::cli(const QStringList &args, int timeoutMs)
{
    return finishCliProcess(startCliProcess(this, QString::fromStdString(m_db), args), timeoutMs);
}

bool TestCliResume::waitForCommittedPoints(QProcess *p, int points, QString *uuid)
{
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < 60000 && p->state() == QProcess::Running) {
        // The newest run that is still being written.
        const std::string id =
            queryText(m_db, "SELECT uuid FROM runs WHERE status = 'running' ORDER BY id DESC");
        if (!id.empty() &&
            queryInt(m_db, "SELECT count(*) FROM points p JOIN runs r ON r.id = p.run_id WHERE r.uuid = '" +
                               id + "' AND p.status = 'completed'") >= points) {
            *uuid = QString::fromStdString(id);
            return true;
        }
        QTest::qWait(20);
    }
    return false;
}

void TestCliResume::checkComplete(const QString &uuid)
{
    const std::string u = uuid.toStdString();
    const std::string run = "(SELECT id FROM runs WHERE uuid = '" + u + "')";
    QCOMPARE(queryText(m_db, "PRAGMA integrity_check"), std::string("ok"));
    QCOMPARE(queryText(m_db, "SELECT status FROM runs WHERE uuid = '" + u + "'"), std::string("completed"));
    QCOMPARE(queryInt(m_db, "SELECT count(*) FROM scenarios WHERE run_id = " + run),
             std::int64_t(kScenarios));
    QCOMPARE(queryInt(m_db, "SELECT count(*) FROM points WHERE run_id = " + run),
             std::int64_t(kScenarios * kPointsPerScenario));
    QCOMPARE(queryInt(m_db, "SELECT count(DISTINCT scenario_id || '/' || idx) FROM points WHERE status = "
                            "'completed' AND idx < 3 AND run_id = " +
                                run),
             std::int64_t(kScenarios * kPointsPerScenario));
    // Each point holds its own requests (4 × C measured + C warm-up), and no X-Request-Id seq repeats.
    QCOMPARE(queryInt(m_db, "SELECT count(*) FROM points p WHERE run_id = " + run +
                                " AND (SELECT count(*) FROM requests q WHERE q.point_id = p.id) = 0"),
             std::int64_t(0));
    QCOMPARE(queryInt(m_db, "SELECT count(*) - count(DISTINCT q.seq) FROM requests q JOIN points p ON p.id = "
                            "q.point_id WHERE p.run_id = " +
                                run),
             std::int64_t(0));
    QCOMPARE(queryInt(m_db, "SELECT count(*) FROM scenarios WHERE verdict IS NULL AND run_id = " + run),
             std::int64_t(0));
}

void TestCliResume::killedRunResumes()
{
    const QString out1 = m_dir.filePath(u"killed-out"_qs);
    QProcess *p = startRun({m_campaign, u"--out"_qs, out1});
    QString uuid;
    QVERIFY2(waitForCommittedPoints(p, 1, &uuid), qPrintable(QString::fromUtf8(p->readAllStandardError())));

    // While it runs, its run cannot be resumed by another process.
    const CliRun busy = cli({u"run"_qs, u"--resume"_qs, uuid.left(8)});
    QCOMPARE(busy.code, 2);
    QVERIFY2(busy.err.contains(u"still running"_qs), qPrintable(busy.err));

    p->kill(); // SIGKILL
    QVERIFY(p->waitForFinished(10000));
    QCOMPARE(p->exitStatus(), QProcess::CrashExit);
    p->deleteLater();
    QVERIFY2(!QFile::exists(out1 + u"/results.json"_qs), "killed before the end: no results.json expected");

    const std::string u = uuid.toStdString();
    QCOMPARE(queryText(m_db, "PRAGMA integrity_check"), std::string("ok"));
    QCOMPARE(queryText(m_db, "SELECT status FROM runs WHERE uuid = '" + u + "'"), std::string("running"));
    const std::string firstPoint = "(SELECT p.id FROM points p JOIN scenarios s ON s.id = p.scenario_id JOIN "
                                   "runs r ON r.id = p.run_id WHERE r.uuid = '" +
                                   u + "' AND s.idx = 0 AND p.idx = 0)";
    QCOMPARE(queryText(m_db, "SELECT status FROM points WHERE id = " + firstPoint), std::string("completed"));
    const std::int64_t firstCount =
        queryInt(m_db, "SELECT count(*) FROM requests WHERE point_id = " + firstPoint);
    QCOMPARE(firstCount, std::int64_t(4 * 1 + 1)); // C=1: 4 measured + 1 warm-up
    const std::string firstIds = queryText(
        m_db, "SELECT group_concat(id || ':' || seq || ':' || COALESCE(e2e_us, -1)) FROM (SELECT * FROM "
              "requests WHERE point_id = " +
                  firstPoint + " ORDER BY id)");
    const std::string firstAgg = queryText(m_db, "SELECT aggregates FROM points WHERE id = " + firstPoint);
    QVERIFY(!firstIds.empty() && !firstAgg.empty());
    // The scenario's server telemetry so far was committed with the point (not only at the run's end).
    const std::string firstScenario = "(SELECT scenario_id FROM points WHERE id = " + firstPoint + ")";
    QVERIFY(queryInt(m_db, "SELECT count(*) FROM telemetry_series WHERE length(samples) >= 16 AND "
                           "scenario_id = " +
                               firstScenario) > 0);
    QVERIFY(queryInt(m_db, "SELECT sum(scrapes_ok) FROM telemetry_sources WHERE scenario_id = " +
                               firstScenario) > 0);

    // Readers see the crash at once: the writer's pid is gone on this kernel and pid namespace.
    const CliRun listed = cli({u"--json"_qs, u"runs"_qs});
    QCOMPARE(listed.code, 0);
    const QJsonArray runs = QJsonDocument::fromJson(listed.out.toUtf8()).array();
    QCOMPARE(runs.size(), 1);
    QCOMPARE(runs[0].toObject().value(u"status"_qs).toString(), u"crashed"_qs);
    const CliRun filtered = cli({u"runs"_qs, u"--filter"_qs, u"status=crashed"_qs});
    QVERIFY2(filtered.out.contains(uuid.left(8)), qPrintable(filtered.out + filtered.err));
    QCOMPARE(queryText(m_db, "SELECT status FROM runs WHERE uuid = '" + u + "'"), std::string("running"));

    // The next writer (any start) recognises the dead writer and marks the run crashed, points intact.
    {
        StorageWriter next;
        QVERIFY(next.open(m_db));
        QVERIFY(next.close());
    }
    QCOMPARE(queryText(m_db, "SELECT status FROM runs WHERE uuid = '" + u + "'"), std::string("crashed"));
    QCOMPARE(queryInt(m_db, "SELECT count(*) FROM requests WHERE point_id = " + firstPoint), firstCount);

    // Resume by prefix; the campaign comes from the stored path (unchanged).
    const QString out2 = m_dir.filePath(u"resumed-out"_qs);
    const CliRun r = cli({u"run"_qs, u"--resume"_qs, uuid.left(8), u"--out"_qs, out2});
    QVERIFY2(r.out.contains(u"resuming run "_qs + uuid), qPrintable(r.out + r.err));
    const QJsonObject results =
        QJsonDocument::fromJson(readTextFile(out2 + u"/results.json"_qs).toUtf8()).object();
    QCOMPARE(results.value(u"run_id"_qs).toString(), uuid);
    QCOMPARE(results.value(u"scenarios"_qs).toArray().size(), kScenarios);
    for (const QJsonValue &s : results.value(u"scenarios"_qs).toArray())
        QCOMPARE(s.toObject().value(u"points"_qs).toArray().size(), kPointsPerScenario);
    QCOMPARE(r.code, exitCodeOf(results));
    QVERIFY(QFile::exists(out2 + u"/run.tlrun"_qs));
    QCOMPARE(queryInt(QString(out2 + u"/run.tlrun"_qs).toStdString(), "SELECT count(*) FROM points"),
             std::int64_t(kScenarios * kPointsPerScenario));

    checkComplete(uuid);
    // requests.csv lists every request of the run: the kept point's (from history) and the resumed ones.
    QStringList csvRows;
    const QStringList csvLines = readTextFile(out2 + u"/requests.csv"_qs).split(u'\n', Qt::SkipEmptyParts);
    QVERIFY(csvLines.size() > 1);
    for (qsizetype i = 1; i < csvLines.size(); ++i)
        csvRows << csvLines[i].section(u',', 0, 2); // scenario_id, point, seq
    csvRows.sort();
    const std::string dbRows = queryText(
        m_db,
        "SELECT group_concat(k, '|') FROM (SELECT s.scenario_key || ',' || p.idx || ',' || q.seq AS k FROM "
        "requests q JOIN points p ON p.id = q.point_id JOIN scenarios s ON s.id = p.scenario_id JOIN runs "
        "r ON r.id = p.run_id WHERE r.uuid = '" +
            u + "' ORDER BY k)");
    QCOMPARE(csvRows.join(u'|').toStdString(), dbRows);
    QCOMPARE(
        queryText(m_db, "SELECT group_concat(id || ':' || seq || ':' || COALESCE(e2e_us, -1)) FROM (SELECT * "
                        "FROM requests WHERE point_id = " +
                            firstPoint + " ORDER BY id)"),
        firstIds);
    QCOMPARE(queryText(m_db, "SELECT aggregates FROM points WHERE id = " + firstPoint), firstAgg);
    QCOMPARE(queryInt(m_db, "SELECT count(*) FROM runs"), std::int64_t(1)); // same run, no new one
    QVERIFY(queryText(m_db, "SELECT provenance FROM runs").find("\"resumes\"") != std::string::npos);

    // A completed run is not resumed again.
    const CliRun again = cli({u"run"_qs, u"--resume"_qs, uuid});
    QCOMPARE(again.code, 2);
    QVERIFY2(again.err.contains(u"completed"_qs), qPrintable(again.err));
}

void TestCliResume::interruptedRunResumes()
{
    QProcess *p = startRun({m_campaign});
    QString uuid;
    QVERIFY(waitForCommittedPoints(p, 1, &uuid));
    ::kill(static_cast<pid_t>(p->processId()), SIGINT);
    const CliRun stopped = finishCliProcess(p, 30000);
    QCOMPARE(stopped.code, 130);
    const std::string u = uuid.toStdString();
    QCOMPARE(queryText(m_db, "SELECT status FROM runs WHERE uuid = '" + u + "'"), std::string("cancelled"));
    const std::int64_t kept = queryInt(
        m_db, "SELECT count(*) FROM points p JOIN runs r ON r.id = p.run_id WHERE r.uuid = '" + u + "'");
    QVERIFY(kept >= 1 && kept < kScenarios * kPointsPerScenario);

    const CliRun r = cli({u"run"_qs, m_campaign, u"--resume"_qs, uuid.left(12)});
    QVERIFY2(r.code == 0 || r.code == 4, qPrintable(QString::number(r.code) + r.err));
    QVERIFY2(r.out.contains(u"resuming run "_qs + uuid), qPrintable(r.out + r.err));
    checkComplete(uuid);
}

void TestCliResume::refusals()
{
    // Unknown run.
    const CliRun unknown = cli({u"run"_qs, u"--resume"_qs, u"0123abcd"_qs});
    QCOMPARE(unknown.code, 2);
    QVERIFY2(unknown.err.contains(u"0123abcd"_qs), qPrintable(unknown.err));
    // Options that do not go with --resume.
    const CliRun only = cli({u"run"_qs, u"--resume"_qs, u"0123abcd"_qs, u"--only"_qs, u"phase=Short"_qs});
    QCOMPARE(only.code, 2);
    QVERIFY2(only.err.contains(u"--only"_qs), qPrintable(only.err));

    // A cancelled run whose campaign file changed since.
    QProcess *p = startRun({m_campaign});
    QString uuid;
    QVERIFY(waitForCommittedPoints(p, 1, &uuid));
    ::kill(static_cast<pid_t>(p->processId()), SIGINT);
    QCOMPARE(finishCliProcess(p, 30000).code, 130);
    // A changed campaign (a new name; reformatting alone would not count: the campaign hash is over the
    // canonical text, campaignhash.h).
    QFile f(m_campaign);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QByteArray text = f.readAll();
    f.close();
    const int at = text.indexOf("\"name\"");
    QVERIFY(at >= 0);
    text.insert(text.indexOf('"', text.indexOf(':', at) + 1) + 1, "changed ");
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(text);
    f.close();
    const CliRun changed = cli({u"run"_qs, u"--resume"_qs, uuid.left(8)});
    QCOMPARE(changed.code, 2);
    QVERIFY2(changed.err.contains(u"has changed"_qs), qPrintable(changed.err));
    QCOMPARE(queryText(m_db, "SELECT status FROM runs WHERE uuid = '" + uuid.toStdString() + "'"),
             std::string("cancelled")); // refused before anything was written
}

QTEST_GUILESS_MAIN(TestCliResume)
#include "tst_cliresume.moc"
