// Which shard bundles make a whole campaign (core/storage/shardset.h): every index 0…N−1 once, one N, every
// run completed; bundles naming no shard are not checked. Each refusal names the shard and what to do.
#include "core/storage/shardset.h"

#include <QTest>

using namespace Throughline;

class TestShardSet : public QObject
{
    Q_OBJECT
private slots:
    void completeSetPasses();
    void unshardedRunsAreNotChecked();
    void refusals_data();
    void refusals();
    void allowMissingNamesTheGaps();
};

namespace {
ShardBundleInfo shard(const std::string &spec, const std::string &status = "completed")
{
    return {"run1/shard-" + spec.substr(0, spec.find('/')) + "/run.tlrun", spec, status};
}
} // namespace

void TestShardSet::completeSetPasses()
{
    QVERIFY(checkCompleteShardSet({shard("2/4"), shard("0/4"), shard("3/4"), shard("1/4")}));
}

void TestShardSet::unshardedRunsAreNotChecked()
{
    QVERIFY(checkCompleteShardSet({{"a.tlrun", "", "completed"}, {"b.tlrun", "", "cancelled"}}));
}

void TestShardSet::refusals_data()
{
    QTest::addColumn<std::vector<ShardBundleInfo>>("bundles");
    QTest::addColumn<QString>("message");
    QTest::newRow("one missing") << std::vector{shard("0/4"), shard("1/4"), shard("3/4")}
                                 << u"shard 2 of 4 is missing (have 0, 1, 3): run that index again"_qs;
    QTest::newRow("two missing") << std::vector{shard("0/4"), shard("3/4")}
                                 << u"shards 1, 2 of 4 are missing (have 0, 3)"_qs;
    QTest::newRow("cancelled")
        << std::vector{shard("0/2"), shard("1/2", "cancelled")}
        << u"shard 1/2 (run1/shard-1/run.tlrun) did not complete (run status cancelled): "
           u"run index 1 again"_qs;
    QTest::newRow("twice") << std::vector{shard("0/2"), shard("0/2"), shard("1/2")}
                           << u"shard 0 twice (run1/shard-0/run.tlrun and run1/shard-0/run.tlrun)"_qs;
    QTest::newRow("other count")
        << std::vector{shard("0/2"), shard("1/3")}
        << u"run1/shard-1/run.tlrun is shard 1/3, run1/shard-0/run.tlrun is one of 2"_qs;
    QTest::newRow("not a shard") << std::vector{shard("0/2"), ShardBundleInfo{"x.tlrun", "", "completed"}}
                                 << u"x.tlrun is not a shard run"_qs;
}

void TestShardSet::refusals()
{
    QFETCH(std::vector<ShardBundleInfo>, bundles);
    QFETCH(QString, message);
    const Status s = checkCompleteShardSet(bundles);
    QVERIFY(!s);
    const QString got = QString::fromStdString(s.error().message);
    QVERIFY2(got.startsWith(u"cannot merge: "_qs) && got.contains(message), qPrintable(got));
}

// --allow-missing: the absent indices are returned to be flagged; a cancelled or doubled shard is still
// refused (leave the cancelled bundle out to merge without it).
void TestShardSet::allowMissingNamesTheGaps()
{
    auto partial = checkShardSet({shard("3/4"), shard("0/4")}, true);
    QVERIFY(partial);
    QCOMPARE(partial->missing, (std::vector<std::string>{"1/4", "2/4"}));
    auto whole = checkShardSet({shard("1/2"), shard("0/2")}, true);
    QVERIFY(whole && whole->missing.empty());
    QVERIFY(!checkShardSet({shard("0/2"), shard("1/2", "cancelled")}, true));
    QVERIFY(!checkShardSet({shard("0/3"), shard("0/3")}, true));
    const Status refused = checkCompleteShardSet({shard("0/4"), shard("1/4"), shard("3/4")});
    QVERIFY(!refused);
    QVERIFY2(refused.error().message.find("--allow-missing") != std::string::npos,
             refused.error().message.c_str());
}

QTEST_GUILESS_MAIN(TestShardSet)
#include "tst_shardset.moc"
