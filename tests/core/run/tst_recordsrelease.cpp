// A recorded run lets each point's raw records go once the history has committed them
// (CampaignRun::Setup::releaseRecordedPoints), so a long run's memory follows its largest point: issue 23's
// "RSS flat" (the CLI kept every record until requests.csv was written). Against the in-process simulator and
// a real SQLite file:
// - during the run, every point but the last two has no records left, each marked recordsInHistory, and the
//   history holds exactly the requests the point had;
// - after the run, no point holds records and all of them read back from history;
// - a point the history could not commit keeps its records: the database is locked by another connection
//   from the second point on (the writer gives up after its busy timeout), so only the first point leaves
//   memory and nothing is lost for requests.csv.
#include "common/demoscenario.h"
#include "core/run/campaignrun.h"
#include "core/sim/simlauncher.h"
#include "core/storage/historyreader.h"
#include "core/storage/sqlitedb.h"
#include "core/storage/storedrecords.h"

#include <QTemporaryDir>
#include <QTest>

#include <chrono>
#include <map>
#include <memory>
#include <thread>

using namespace Throughline;

namespace {

// The demo's chat scenario, four closed-loop points, short answers and a fast simulator: a few seconds.
Scenario fourPointScenario(const Scenario &demo)
{
    Scenario s = demo;
    s.endpoint.sim.timeScale = 5;
    s.phase.osl = 16;
    s.plan.mode = LoadPlan::Mode::Closed;
    s.plan.concurrencies = {2, 4, 6, 8};
    s.plan.requestCount = 60;
    s.plan.warmupRequests = 0;
    s.plan.cooldownS = 0;
    s.plan.minWindowS = 0.1;
    return s;
}

CampaignRun::Setup recordedSetup(const Scenario &scenario, const QString &db)
{
    CampaignRun::Setup setup;
    setup.scenarios = {scenario};
    setup.campaignName = "records release";
    setup.campaignText = "{}";
    setup.historyDb = db.toStdString();
    setup.releaseRecordedPoints = true;
    setup.options.workers = 2;
    setup.options.simLauncher = SimLauncher(&launchSimulator);
    return setup;
}

} // namespace

class TestRecordsRelease : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        auto demo = TestSupport::firstDemoScenario();
        QVERIFY2(demo.ok(), TestSupport::errorText(demo));
        m_scenario = fourPointScenario(*demo);
    }

    void recordedPointsLeaveMemory()
    {
        QTemporaryDir dir;
        const QString db = dir.filePath(QStringLiteral("history.sqlite"));
        CampaignRun::Setup setup = recordedSetup(m_scenario, db);
        std::map<int, std::size_t> recordsAtFinish; // point → how many records it had
        std::vector<int> heldWhenFinished;          // per point: earlier points still holding records
        setup.options.onPointFinished = [&](const ScenarioOutcome &so, const PointOutcome &po) {
            recordsAtFinish[po.pointIndex] = po.records.size();
            int held = 0;
            for (const PointOutcome &earlier : so.points)
                if (earlier.pointIndex < po.pointIndex - 1 && !earlier.records.empty())
                    ++held;
            heldWhenFinished.push_back(held);
        };
        CampaignRun run(std::move(setup));
        auto done = run.run();
        QVERIFY2(done.ok(), done.ok() ? "" : done.error().message.c_str());
        QVERIFY2(done->recorded, done->recordError.c_str());
        QCOMPARE(heldWhenFinished.size(), std::size_t(4));
        // A point is committed within milliseconds, long before the next one ends: by the end of point k
        // every point before k-1 has left memory.
        for (std::size_t k = 0; k < heldWhenFinished.size(); ++k)
            QVERIFY2(heldWhenFinished[k] == 0, qPrintable(QStringLiteral("point %1").arg(k)));

        HistoryReader reader;
        QVERIFY(reader.open(db.toStdString()).ok());
        const ScenarioOutcome &so = done->run.scenarios.front();
        QCOMPARE(so.points.size(), std::size_t(4));
        for (const PointOutcome &po : so.points) {
            QVERIFY(po.records.empty());
            QVERIFY(po.recordsInHistory);
            QVERIFY(recordsAtFinish[po.pointIndex] >= 60);
            auto stored = StoredRecords::ofPoint(reader, done->run.runId, so.scenarioIndex, po.pointIndex);
            QVERIFY2(stored.ok(), stored.ok() ? "" : stored.error().message.c_str());
            QCOMPARE(stored->size(), recordsAtFinish[po.pointIndex]);
        }
    }

    void uncommittedPointsKeepTheirRecords()
    {
        QTemporaryDir dir;
        const QString db = dir.filePath(QStringLiteral("history.sqlite"));
        CampaignRun::Setup setup = recordedSetup(m_scenario, db);
        std::unique_ptr<SqliteDb> locker;
        setup.options.onPointFinished = [&](const ScenarioOutcome &, const PointOutcome &po) {
            if (po.pointIndex != 0 || locker)
                return;
            // Point 0 is queued now; once it is committed, take the write lock so nothing after it commits.
            std::this_thread::sleep_for(std::chrono::milliseconds(500));
            locker = std::make_unique<SqliteDb>();
            QVERIFY(locker->open(db.toStdString()).ok());
            QVERIFY(locker->exec("BEGIN EXCLUSIVE").ok());
        };
        CampaignRun run(std::move(setup));
        auto done = run.run();
        QVERIFY2(done.ok(), done.ok() ? "" : done.error().message.c_str());
        QVERIFY(!done->recorded); // the writer timed out on the lock
        QVERIFY(!done->recordError.empty());
        const ScenarioOutcome &so = done->run.scenarios.front();
        QCOMPARE(so.points.size(), std::size_t(4));
        QVERIFY(so.points[0].recordsInHistory);
        QVERIFY(so.points[0].records.empty());
        for (std::size_t k = 1; k < so.points.size(); ++k) {
            QVERIFY2(!so.points[k].recordsInHistory, qPrintable(QStringLiteral("point %1").arg(k)));
            QVERIFY(so.points[k].records.size() >= 60);
        }
        QVERIFY(locker->exec("ROLLBACK").ok());
    }

private:
    Scenario m_scenario;
};

QTEST_GUILESS_MAIN(TestRecordsRelease)
#include "tst_recordsrelease.moc"
