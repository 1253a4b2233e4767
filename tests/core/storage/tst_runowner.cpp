// Crash shown as crash (core/storage/runowner.h): the one rule that tells a live writer of a 'running' run
// from a gone one — the pid on the same kernel and pid namespace (a dead child, a zombie, a reused pid), the
// lease elsewhere (another host, another namespace), the pre-v5 fallback — and the readers that apply it:
// HistoryReader lists, details and status filters show 'crashed' at once without writing, while a live
// writer's lease is renewed by its heartbeat even when no batch arrives.
#include "core/storage/historyreader.h"
#include "core/storage/runowner.h"
#include "core/storage/sqlitedb.h"
#include "core/storage/storagewriter.h"
#include "storagetestutil.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace Throughline;

namespace {

std::string iso(const QDateTime &t)
{
    return t.toString(Qt::ISODateWithMs).toStdString();
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

} // namespace

class TestRunOwner : public QObject
{
    Q_OBJECT
private slots:
    void sameKernelChecksThePid()
    {
        const RunOwner me = RunOwnership::self();
        QVERIFY(!me.bootId.empty());
        QVERIFY(!me.pidNamespace.empty());
        QVERIFY(!RunOwnership::ownerGone(me));
        // A child that has exited (reaped): its pid no longer exists.
        QProcess child;
        child.start(u"true"_qs, {});
        QVERIFY(child.waitForFinished(5000));
        RunOwner dead = me;
        dead.pid = child.processId() > 0 ? child.processId() : 999'999'999;
        dead.startTicks = 0;
        dead.leaseUntilUtc = iso(QDateTime::currentDateTimeUtc().addSecs(3600)); // a lease does not save it
        QVERIFY(RunOwnership::ownerGone(dead));
        // Our own pid with another start time: reused by another process.
        RunOwner reused = me;
        reused.startTicks = me.startTicks + 1;
        QVERIFY(RunOwnership::ownerGone(reused));
    }

    void elsewhereTheLeaseDecides()
    {
        const QDateTime now = QDateTime::currentDateTimeUtc();
        RunOwner remote;
        remote.host = "gpu-node-17";
        remote.pid = static_cast<std::int64_t>(QCoreApplication::applicationPid()); // same number, other host
        remote.bootId = "00000000-0000-4000-8000-000000000000";
        remote.pidNamespace = "pid:[1]";
        remote.leaseUntilUtc = iso(now.addSecs(5));
        QVERIFY(!RunOwnership::ownerGone(remote, now));
        QVERIFY(RunOwnership::ownerGone(remote, now.addSecs(6)));
        // Same kernel, another pid namespace (a container): the pid cannot be checked, the lease decides.
        RunOwner container = RunOwnership::self();
        container.pidNamespace = "pid:[4026530000]";
        container.pid = 1;
        container.leaseUntilUtc = iso(now.addSecs(5));
        QVERIFY(!RunOwnership::ownerGone(container, now));
        QVERIFY(RunOwnership::ownerGone(container, now.addSecs(RunOwnership::kLeaseSeconds)));
        // An unreadable lease counts as expired.
        remote.leaseUntilUtc = "soon";
        QVERIFY(RunOwnership::ownerGone(remote, now));
    }

    void preV5RowsFallBack()
    {
        const QDateTime now = QDateTime::currentDateTimeUtc();
        RunOwner legacy; // no boot id, no lease
        legacy.host = RunOwnership::self().host;
        legacy.pid = static_cast<std::int64_t>(QCoreApplication::applicationPid());
        QVERIFY(!RunOwnership::ownerGone(legacy, now));
        legacy.pid = 0;
        QVERIFY(RunOwnership::ownerGone(legacy, now));
        legacy.host = "elsewhere";
        legacy.pid = 42;
        legacy.heartbeatUtc = iso(now.addSecs(-60));
        QVERIFY(!RunOwnership::ownerGone(legacy, now));
        legacy.heartbeatUtc = iso(now.addSecs(-RunOwnership::kLegacyStaleSeconds - 1));
        QVERIFY(RunOwnership::ownerGone(legacy, now));
    }

    // A run row whose writer died: readers list it crashed (lists, detail, filters), the file keeps 'running'
    // until the next writer recovers it; a live writer's run stays 'running' and its lease moves on while
    // idle.
    void readersShowTheCrashAtOnce()
    {
        QTemporaryDir dir;
        const std::string db = dir.filePath(u"h.sqlite"_qs).toStdString();
        const std::string live = StorageTest::uuidFor(0x0e110001u);
        const std::string gone = StorageTest::uuidFor(0x0e110002u);
        StorageWriter writer;
        QVERIFY(writer.open(db));
        writer.beginRun(StorageTest::makeRun(live));
        writer.beginRun(StorageTest::makeRun(gone));
        QVERIFY(writer.flush());
        {
            SqliteDb rw;
            QVERIFY(rw.open(db, SqliteDb::Mode::ReadWrite));
            QVERIFY(rw.exec("UPDATE runs SET writer_pid = 999999999 WHERE uuid = '" + gone + "'"));
        }
        const std::string lease0 =
            queryText(db, "SELECT lease_until_utc FROM runs WHERE uuid = '" + live + "'");
        QVERIFY(!lease0.empty());
        QCOMPARE(queryText(db, "SELECT writer_boot_id FROM runs WHERE uuid = '" + live + "'"),
                 RunOwnership::bootId());

        HistoryReader reader;
        QVERIFY(reader.open(db));
        auto runs = reader.listRuns();
        QVERIFY(runs);
        QCOMPARE(runs->size(), 2u);
        for (const RunSummary &r : *runs)
            QCOMPARE(r.status, std::string(r.uuid == gone ? "crashed" : "running"));
        QCOMPARE(reader.runDetail(gone)->summary.status, std::string("crashed"));
        RunFilter crashed;
        crashed.status = {"crashed"};
        auto onlyCrashed = reader.listRuns(crashed);
        QVERIFY(onlyCrashed);
        QCOMPARE(onlyCrashed->size(), 1u);
        QCOMPARE(onlyCrashed->front().uuid, gone);
        QVERIFY(reader.unfinishedPoints(gone)); // resumable as crashed
        QVERIFY(!reader.unfinishedPoints(live));
        QCOMPARE(queryText(db, "SELECT status FROM runs WHERE uuid = '" + gone + "'"),
                 std::string("running"));

        // Idle writer (no batch for > 2 s): the heartbeat still renews the live run's lease.
        QTRY_VERIFY_WITH_TIMEOUT(
            queryText(db, "SELECT lease_until_utc FROM runs WHERE uuid = '" + live + "'") > lease0, 8000);
        writer.finishRun(live, RunStatus::Completed);
        QVERIFY(writer.close());
        // The next writer marks the dead one crashed in the file.
        StorageWriter next;
        QVERIFY(next.open(db));
        QVERIFY(next.close());
        QCOMPARE(queryText(db, "SELECT status FROM runs WHERE uuid = '" + gone + "'"),
                 std::string("crashed"));
        QCOMPARE(queryText(db, "SELECT status FROM runs WHERE uuid = '" + live + "'"),
                 std::string("completed"));
    }
};

QTEST_GUILESS_MAIN(TestRunOwner)
#include "tst_runowner.moc"
