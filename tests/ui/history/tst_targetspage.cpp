// Targets editor: shipped tables read-only and copyable, editing with validation, JSON round trip,
// pass/fail matrix of a stored run.
#include "ui/guitestmain.h"
#include "historyfixture.h"

#include "ui/targets/targetspage.h"
#include "ui/targets/targetstablemodel.h"

#include <QAbstractItemModelTester>
#include <QTableWidget>
#include <QtTest>

using namespace Throughline;

class TstTargetsPage : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;

private slots:
    void shippedReadOnlyAndCopy()
    {
        TargetsPage page(m_dir.filePath(u"h.sqlite"_qs));
        QAbstractItemModelTester tester(page.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        const QStringList shipped = page.shippedTables();
        QVERIFY(shipped.contains(u":/targets/demo-targets.json"_qs));
        QVERIFY(page.selectShipped(u":/targets/demo-targets.json"_qs).ok());
        const int n = page.model()->rowCount();
        QVERIFY(n > 0);
        QVERIFY(page.model()->isReadOnly());
        const QModelIndex v = page.model()->index(0, TargetsTableModel::Value);
        QVERIFY(!(page.model()->flags(v) & Qt::ItemIsEditable));
        QVERIFY(!page.model()->setData(v, 1.0, Qt::EditRole));
        page.copyToUserTable();
        QVERIFY(!page.model()->isReadOnly());
        QCOMPARE(page.model()->rowCount(), n);
        QVERIFY(page.model()->setData(v, 123.5, Qt::EditRole));
        QCOMPARE(page.model()->index(0, TargetsTableModel::Value).data().toDouble(), 123.5);
    }

    void editingValidates()
    {
        TargetsPage page(m_dir.filePath(u"h.sqlite"_qs));
        QAbstractItemModelTester tester(page.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        page.model()->appendRow();
        QCOMPARE(page.model()->rowCount(), 1);
        auto idx = [&](int c) { return page.model()->index(0, c); };
        QVERIFY(!page.model()->setData(idx(TargetsTableModel::Cmp), u"=="_qs, Qt::EditRole));
        QVERIFY(page.model()->setData(idx(TargetsTableModel::Cmp), u"<="_qs, Qt::EditRole));
        QVERIFY(!page.model()->setData(idx(TargetsTableModel::Metric), u"speed"_qs, Qt::EditRole));
        QVERIFY(page.model()->setData(idx(TargetsTableModel::Metric), u"ttft_ms"_qs, Qt::EditRole));
        QVERIFY(page.model()->setData(idx(TargetsTableModel::Stat), u"p90"_qs, Qt::EditRole));
        QVERIFY(!page.model()->setData(idx(TargetsTableModel::Kind), u"maybe"_qs, Qt::EditRole));
        QVERIFY(page.model()->setData(idx(TargetsTableModel::Kind), u"slo"_qs, Qt::EditRole));
        QVERIFY(!page.model()->setData(idx(TargetsTableModel::Value), u"abc"_qs, Qt::EditRole));
        QVERIFY(page.model()->setData(idx(TargetsTableModel::Value), u"250"_qs, Qt::EditRole));
        QVERIFY(page.model()->setData(idx(TargetsTableModel::Phase), u"Chat"_qs, Qt::EditRole));
        // JSON round trip through core's parser.
        const QString path = m_dir.filePath(u"user.json"_qs);
        QVERIFY(page.exportJson(path).ok());
        TargetsPage other(m_dir.filePath(u"h.sqlite"_qs));
        QVERIFY(other.importJson(path).ok());
        QCOMPARE(other.model()->rowCount(), 1);
        const TargetRow &r = other.model()->targetRows().front();
        QCOMPARE(r.metric, std::string("ttft_ms"));
        QCOMPARE(r.stat, std::string("p90"));
        QVERIFY(r.cmp == Comparator::LessEqual);
        QVERIFY(r.kind == TargetKind::Slo);
        QCOMPARE(r.value, 250.0);
        QCOMPARE(r.phase, std::string("Chat"));
        // A broken file: error names the file.
        QFile bad(m_dir.filePath(u"bad.json"_qs));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write("{\"schema\": \"throughline.targets/1\", \"targets\": [{\"metric\": \"ttft_ms\", \"cmp\": "
                  "\"=\"}]}");
        bad.close();
        const Status st = other.importJson(bad.fileName());
        QVERIFY(!st.ok());
        QVERIFY2(QString::fromStdString(st.error().message).contains(u"bad.json"_qs),
                 st.error().message.c_str());
        QCOMPARE(other.model()->rowCount(), 1); // unchanged
        QVERIFY(other.model()->removeRows(0, 1));
        QCOMPARE(other.model()->rowCount(), 0);
    }

    void passFailMatrix()
    {
        const QString db = m_dir.filePath(u"matrix.sqlite"_qs);
        StorageWriter writer;
        QVERIFY(writer.open(db.toStdString()).ok());
        const auto run = TestFixture::storeRun(writer, "m", {"Chat", "Reasoning"}, {"vllm"}, 50, 4);
        QVERIFY(writer.close().ok());
        TargetsPage page(db);
        page.model()->appendRow(); // output_tps_per_gpu >= value, baseline, any scenario
        QVERIFY(page.model()->setData(page.model()->index(0, TargetsTableModel::Value), 1.0, Qt::EditRole));
        page.model()->appendRow();
        QVERIFY(page.model()->setData(page.model()->index(1, TargetsTableModel::Phase), u"Reasoning"_qs,
                                      Qt::EditRole));
        QVERIFY(page.model()->setData(page.model()->index(1, TargetsTableModel::Value), 1e9, Qt::EditRole));
        QVERIFY(page.showRunMatrix(QString::fromStdString(run.uuid.substr(0, 8))).ok());
        QTableWidget *m = page.matrix();
        QCOMPARE(m->rowCount(), 2);
        QCOMPARE(m->item(0, 0)->text(), QString::fromStdString(run.scenarioIds[0]));
        QCOMPARE(m->item(0, 1)->text(), u"pass"_qs); // Chat: only the reachable row applies
        QCOMPARE(m->item(1, 1)->text(), u"fail"_qs); // Reasoning: the 1e9 row fails
        QVERIFY(m->item(0, 2)->text() != u"-"_qs);   // operating point shown
        QVERIFY(!page.showRunMatrix(u"deadbeef"_qs).ok());

        // The run as its own baseline: two rows per scenario, and judged against them it passes.
        TargetsPage baseline(db);
        auto added = baseline.useRunAsBaseline(QString::fromStdString(run.uuid));
        QVERIFY(added.ok());
        QCOMPARE(*added, 4);
        QVERIFY(baseline.showRunMatrix(QString::fromStdString(run.uuid)).ok());
        QCOMPARE(baseline.matrix()->item(0, 1)->text(), u"pass"_qs);
        QCOMPARE(baseline.matrix()->item(1, 1)->text(), u"pass"_qs);
    }
};

THROUGHLINE_GUI_TEST_MAIN(TstTargetsPage)
#include "tst_targetspage.moc"
