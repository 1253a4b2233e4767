// Targets editor: shipped tables read-only and copyable, the campaign's table shown first, editing with
// validation, JSON round trip, pass/fail matrix of the newest (or chosen) stored run re-judged on edits, an
// empty history says what to do, and "use as baseline" sets the campaign's targets.baseline_run (undoable).
#include "ui/guitestmain.h"
#include "../cellfit.h"
#include "historyfixture.h"

#include "ui/document/campaigndocument.h"
#include "ui/targets/targetspage.h"
#include "ui/targets/targetstablemodel.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QTableView>
#include <QUndoStack>
#include <QTableWidget>
#include <QtTest>

using namespace Throughline;

class TstTargetsPage : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    CampaignDocument m_doc; // no target table, no baseline run

private slots:
    void shippedReadOnlyAndCopy()
    {
        TargetsPage page(m_dir.filePath(u"h.sqlite"_qs), &m_doc);
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

    void columnsShowTheirCellsWhole()
    {
        TargetsPage page(m_dir.filePath(u"h.sqlite"_qs), &m_doc);
        page.resize(1400, 800);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QVERIFY(page.selectShipped(u":/targets/demo-targets.json"_qs).ok());
        QTest::qWait(50); // the queued re-measure after the reset
        auto *view = page.findChild<QTableView *>(u"targetsTable"_qs);
        QVERIFY(view);
        for (int r = 0; r < page.model()->rowCount(); ++r)
            for (int c = 0; c < TargetsTableModel::Source; ++c) {
                const QString cut = TestFixture::cellCutOff(view, r, c);
                QVERIFY2(cut.isEmpty(), qPrintable(cut));
            }
    }

    void editingValidates()
    {
        TargetsPage page(m_dir.filePath(u"h.sqlite"_qs), &m_doc);
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
        TargetsPage other(m_dir.filePath(u"h.sqlite"_qs), &m_doc);
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

    void campaignTableShownFirstAndEmptyHistorySaysWhatToDo()
    {
        CampaignDocument doc;
        QVERIFY(doc.load(u":/campaigns/demo.json"_qs).ok());
        TargetsPage page(m_dir.filePath(u"none.sqlite"_qs), &doc);
        QCOMPARE(page.tableCombo()->currentData().toString(), u":/targets/demo-targets.json"_qs);
        QVERIFY(page.model()->isReadOnly());
        QVERIFY(page.model()->rowCount() > 0);
        QCOMPARE(page.runCombo()->count(), 0);
        QVERIFY2(page.matrixHint().contains(u"Run the campaign"_qs), qPrintable(page.matrixHint()));
        QVERIFY(page.currentRun().isEmpty());
    }

    void passFailMatrix()
    {
        const QString db = m_dir.filePath(u"matrix.sqlite"_qs);
        StorageWriter writer;
        QVERIFY(writer.open(db.toStdString()).ok());
        const auto older = TestFixture::storeRun(writer, "old", {"Chat"}, {"vllm"}, 50, 3);
        const auto run = TestFixture::storeRun(writer, "m", {"Chat", "Reasoning"}, {"vllm"}, 50, 4);
        QVERIFY(writer.close().ok());
        TargetsPage page(db, &m_doc);
        QCOMPARE(page.runCombo()->count(), 2);
        QCOMPARE(page.currentRun(), QString::fromStdString(run.uuid)); // the newest on arrival
        QVERIFY(page.matrixHint().isEmpty());
        QTableWidget *m = page.matrix();
        QCOMPARE(m->rowCount(), 2);
        QCOMPARE(m->item(0, 1)->text(), u"no_target"_qs); // empty user table
        page.model()->appendRow(); // output_tps_per_gpu >= value, baseline, any scenario
        QVERIFY(page.model()->setData(page.model()->index(0, TargetsTableModel::Value), 1.0, Qt::EditRole));
        page.model()->appendRow();
        QVERIFY(page.model()->setData(page.model()->index(1, TargetsTableModel::Phase), u"Reasoning"_qs,
                                      Qt::EditRole));
        QVERIFY(page.model()->setData(page.model()->index(1, TargetsTableModel::Value), 1e9, Qt::EditRole));
        // Edits re-judge at once.
        QCOMPARE(m->item(0, 0)->text(), QString::fromStdString(run.scenarioIds[0]));
        QCOMPARE(m->item(0, 1)->text(), u"pass"_qs);         // Chat: only the reachable row applies
        QCOMPARE(m->item(1, 1)->text(), u"fail"_qs);         // Reasoning: the 1e9 row fails
        QVERIFY(m->item(0, 2)->text().startsWith(u"C="_qs)); // operating point shown as its load
        QCOMPARE(m->item(0, 3)->data(Qt::UserRole).toString(), u"pass"_qs);
        QVERIFY(!page.showRunMatrix(u"deadbeef"_qs).ok());
        QVERIFY(page.showRunMatrix(QString::fromStdString(older.uuid.substr(0, 8))).ok());
        QCOMPARE(page.currentRun(), QString::fromStdString(older.uuid));
        QCOMPARE(page.runCombo()->currentData().toString(), QString::fromStdString(older.uuid));
        QCOMPARE(m->rowCount(), 1);
        QVERIFY(page.reloadRuns().ok()); // keeps the run shown
        QCOMPARE(page.currentRun(), QString::fromStdString(older.uuid));
        QVERIFY(page.reloadRuns(true).ok());
        QCOMPARE(page.currentRun(), QString::fromStdString(run.uuid));
    }

    void runAsCampaignBaseline()
    {
        const QString db = m_dir.filePath(u"baseline.sqlite"_qs);
        StorageWriter writer;
        QVERIFY(writer.open(db.toStdString()).ok());
        const auto base = TestFixture::storeRun(writer, "base", {"Chat", "Reasoning"}, {"vllm"}, 50, 5);
        const auto slower = TestFixture::storeRun(writer, "slower", {"Chat", "Reasoning"}, {"vllm"}, 25, 6);
        QVERIFY(writer.close().ok());
        CampaignDocument doc;
        TargetsPage page(db, &doc);
        QVERIFY(page.baselineText().contains(u"No baseline run"_qs));
        QVERIFY(page.showRunMatrix(QString::fromStdString(base.uuid)).ok());
        QVERIFY(page.useRunAsBaseline(page.currentRun()).ok());
        QCOMPARE(doc.campaign().targets.baselineRun, base.uuid); // the campaign's field, not a second kind
        QVERIFY(doc.isModified());
        // Two rows per scenario (throughput ≥, mean TTFT ≤); the run judged against itself passes.
        QVERIFY2(page.baselineText().contains(u"4 baseline row"_qs), qPrintable(page.baselineText()));
        QCOMPARE(page.model()->rowCount(), 0); // the user table is left alone
        QCOMPARE(page.matrix()->item(0, 1)->text(), u"pass"_qs);
        QCOMPARE(page.matrix()->item(1, 1)->text(), u"pass"_qs);
        // A run at half the throughput fails the 95 % rule.
        QVERIFY(page.showRunMatrix(QString::fromStdString(slower.uuid)).ok());
        QCOMPARE(page.matrix()->item(0, 1)->text(), u"fail"_qs);
        QVERIFY(!page.useRunAsBaseline(u"0000000000"_qs).ok());
        doc.undoStack()->undo();
        QVERIFY(doc.campaign().targets.baselineRun.empty());
        QVERIFY(page.baselineText().contains(u"No baseline run"_qs));
        QCOMPARE(page.matrix()->item(0, 1)->text(), u"no_target"_qs);
    }
};

THROUGHLINE_GUI_TEST_MAIN(TstTargetsPage)
#include "tst_targetspage.moc"
