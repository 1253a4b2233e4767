// History models and page: QAbstractItemModelTester, filtering, sorting, run detail, compare with an
// imported vLLM run, exports (CSV, PNG/SVG/PDF plots), delete.
#include "ui/guitestmain.h"
#include "historyfixture.h"

#include "core/storage/historyreader.h"
#include "ui/history/chartview.h"
#include "ui/history/historycomparewidget.h"
#include "ui/history/historypage.h"
#include "ui/history/historyroles.h"
#include "ui/history/pointstablemodel.h"
#include "ui/history/runcomparison.h"
#include "ui/history/runfilterproxy.h"
#include "ui/history/runnoteseditor.h"
#include "ui/history/runstablemodel.h"

#include <QAbstractItemModelTester>
#include <QDir>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTableView>
#include <QTableWidget>
#include <QtTest>

using namespace Throughline;

class TstHistoryPage : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString m_db;
    std::vector<TestFixture::StoredRun> m_stored;

    static QString vllmSample()
    {
        return QStringLiteral(THROUGHLINE_SHARED_DIR) +
               u"/data/samples/vllm-bench/surajssd_vllm_detailed_llama33_70b_tp8_sharegpt_qps16.json"_qs;
    }

private slots:
    void initTestCase()
    {
        m_db = m_dir.filePath(u"history.sqlite"_qs);
        StorageWriter writer;
        QVERIFY(writer.open(m_db.toStdString()).ok());
        m_stored.push_back(TestFixture::storeRun(writer, "alpha", {"Chat"}, {"vllm"}, 50, 1, {"nightly"}));
        m_stored.push_back(TestFixture::storeRun(writer, "beta", {"Chat", "Reasoning"}, {"sglang"}, 60, 2));
        m_stored.push_back(
            TestFixture::storeRun(writer, "gamma", {"Reasoning"}, {"vllm", "trtllm"}, 40, 3, {"nightly"}));
        QVERIFY(writer.flush().ok());
        QVERIFY(writer.close().ok());
    }

    void runsModel()
    {
        HistoryPage page(m_db);
        QAbstractItemModelTester t1(page.runsModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester t2(page.proxy(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(page.runsModel()->rowCount(), 3);
        QVERIFY(page.reload().ok());
        QCOMPARE(page.proxy()->rowCount(), 3);
        // Sorting by campaign ascending.
        page.runsView()->sortByColumn(RunsTableModel::Campaign, Qt::AscendingOrder);
        QCOMPARE(page.proxy()->index(0, RunsTableModel::Campaign).data().toString(), u"alpha"_qs);
        page.runsView()->sortByColumn(RunsTableModel::Campaign, Qt::DescendingOrder);
        QCOMPARE(page.proxy()->index(0, RunsTableModel::Campaign).data().toString(), u"gamma"_qs);
    }

    void filtering_data()
    {
        QTest::addColumn<QString>("expr");
        QTest::addColumn<QStringList>("campaigns");
        QTest::newRow("none") << QString() << QStringList{u"alpha"_qs, u"beta"_qs, u"gamma"_qs};
        QTest::newRow("backend") << u"backend=sglang"_qs << QStringList{u"beta"_qs};
        QTest::newRow("backend or") << u"backend=sglang,backend=trt*"_qs
                                    << QStringList{u"beta"_qs, u"gamma"_qs};
        QTest::newRow("phase and backend") << u"phase=reasoning,backend=vllm"_qs << QStringList{u"gamma"_qs};
        QTest::newRow("gpu glob") << u"gpu=H2*"_qs << QStringList{u"alpha"_qs, u"beta"_qs, u"gamma"_qs};
        QTest::newRow("gpu none") << u"gpu=B200"_qs << QStringList{};
        QTest::newRow("tag") << u"tag=nightly"_qs << QStringList{u"alpha"_qs, u"gamma"_qs};
        QTest::newRow("text") << u"text=BET"_qs << QStringList{u"beta"_qs};
        QTest::newRow("verdict") << u"verdict=pass"_qs << QStringList{u"alpha"_qs};
        QTest::newRow("model") << u"model=gpt-oss-*"_qs << QStringList{u"alpha"_qs, u"beta"_qs, u"gamma"_qs};
    }
    void filtering()
    {
        QFETCH(QString, expr);
        QFETCH(QStringList, campaigns);
        HistoryPage page(m_db);
        QAbstractItemModelTester tester(page.proxy(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        auto filter = HistoryReader::parseFilter(expr.toStdString());
        QVERIFY2(filter.ok(), filter.ok() ? "" : filter.error().message.c_str());
        page.setFilter(*filter);
        QStringList got;
        for (int r = 0; r < page.proxy()->rowCount(); ++r)
            got << page.proxy()->index(r, RunsTableModel::Campaign).data().toString();
        got.sort();
        QCOMPARE(got, campaigns);
        // The store's own filter agrees with the in-memory one.
        HistoryReader reader;
        QVERIFY(reader.open(m_db.toStdString()).ok());
        auto runs = reader.listRuns(*filter);
        QVERIFY(runs.ok());
        QCOMPARE(int(runs->size()), int(campaigns.size()));
    }

    void dateRange()
    {
        HistoryPage page(m_db);
        RunFilter f;
        f.fromUtc = "2100";
        page.setFilter(f);
        QCOMPARE(page.proxy()->rowCount(), 0);
        f.fromUtc = "2000";
        page.setFilter(f);
        QCOMPARE(page.proxy()->rowCount(), 3);
    }

    void detail()
    {
        HistoryPage page(m_db);
        QAbstractItemModelTester tester(page.pointsModel(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(page.showRun(QString::fromStdString(m_stored[1].uuid)));
        QCOMPARE(page.pointsModel()->rowCount(), 8);
        QCOMPARE(page.curveChart()->chart().series.size(), 2);
        QVERIFY(!page.showRun(u"00000000-0000-0000-0000-000000000000"_qs));
        // Validity flags reach the table: scenario 1 point 3 was stored invalid.
        bool invalidSeen = false;
        for (int r = 0; r < page.pointsModel()->rowCount(); ++r)
            invalidSeen =
                invalidSeen || page.pointsModel()->index(r, 7).data().toString().contains(u"error_rate"_qs);
        QVERIFY(invalidSeen);
        // CSV export of the points table: header + one line per point.
        const QString csv = HistoryPage::toCsv(page.pointsModel());
        QCOMPARE(csv.count(u'\n'), 9);
        QVERIFY(csv.startsWith(u"Scenario,#,Load"_qs));
        // Plot exports: PNG raster, SVG and PDF vector.
        for (const QString &ext : {u"png"_qs, u"svg"_qs, u"pdf"_qs}) {
            const QString path = m_dir.filePath(u"curve."_qs + ext);
            QString error;
            QVERIFY2(page.curveChart()->exportTo(path, &error), qPrintable(error));
            QVERIFY(QFileInfo(path).size() > 500);
        }
        QVERIFY(!page.curveChart()->exportTo(m_dir.filePath(u"curve.bmpx"_qs)));
    }

    // Tags and notes edited through the detail tab's widgets land in the database (a copy of the fixture),
    // show up in the list and its tag filter, survive switching runs and reopening the page.
    void editTagsAndNotes()
    {
        const QString db = m_dir.filePath(u"notes.sqlite"_qs);
        QVERIFY(QFile::copy(m_db, db));
        const QString alpha = QString::fromStdString(m_stored[0].uuid);
        const QString beta = QString::fromStdString(m_stored[1].uuid);
        auto selectRun = [](HistoryPage &page, const QString &uuid) {
            for (int r = 0; r < page.proxy()->rowCount(); ++r) {
                const QModelIndex i = page.proxy()->index(r, 0);
                if (i.data(HistoryRoles::UuidRole).toString() == uuid) {
                    page.runsView()->setCurrentIndex(i); // the page loads the detail on row change
                    return true;
                }
            }
            return false;
        };
        auto tagsCell = [](HistoryPage &page, const QString &uuid) {
            for (int r = 0; r < page.runsModel()->rowCount(); ++r)
                if (page.runsModel()->index(r, 0).data(HistoryRoles::UuidRole).toString() == uuid)
                    return page.runsModel()->index(r, RunsTableModel::Tags).data().toString();
            return u"<missing>"_qs;
        };
        const QString notes = u"Driver 550.54 on node 7; \"warm\" cache.\nRe-run after the BIOS update."_qs;
        {
            HistoryPage page(db);
            page.resize(1400, 900);
            page.show();
            QVERIFY(QTest::qWaitForWindowExposed(&page));
            RunNotesEditor *ed = page.notesEditor();
            QVERIFY(!ed->tagsEdit()->isEnabled()); // no run shown yet
            QVERIFY(selectRun(page, alpha));
            QCOMPARE(ed->runUuid(), alpha);
            QCOMPARE(ed->tagsEdit()->text(), u"nightly"_qs);
            QVERIFY(!ed->saveButton()->isEnabled());

            ed->tagsEdit()->selectAll();
            QTest::keyClicks(ed->tagsEdit(), u"nightly, release-1.2 ,, gpu h200"_qs);
            ed->notesEdit()->setFocus();
            QTest::keyClicks(ed->notesEdit(), u"Driver 550.54 on node 7; \"warm\" cache."_qs);
            QTest::keyClick(ed->notesEdit(), Qt::Key_Return);
            QTest::keyClicks(ed->notesEdit(), u"Re-run after the BIOS update."_qs);
            QCOMPARE(ed->notes(), notes);
            QVERIFY(ed->isModified());
            QVERIFY(ed->saveButton()->isEnabled());
            QTest::mouseClick(ed->saveButton(), Qt::LeftButton);
            QVERIFY(!ed->isModified());
            QVERIFY(!ed->saveButton()->isEnabled());
            // The list row is refreshed in place; the selection stays on the run.
            QCOMPARE(tagsCell(page, alpha), u"gpu h200, nightly, release-1.2"_qs);
            QCOMPARE(page.runsView()->currentIndex().data(HistoryRoles::UuidRole).toString(), alpha);
            const QString shot = u"/tmp/h-store-history-notes.png"_qs;
            QVERIFY(page.grab().save(shot));

            // Tag filter in the list (the filter bar's tag field).
            QTest::keyClicks(page.tagFilterEdit(), u"release-1.2"_qs);
            QCOMPARE(page.proxy()->rowCount(), 1);
            QCOMPARE(page.proxy()->index(0, 0).data(HistoryRoles::UuidRole).toString(), alpha);
            page.tagFilterEdit()->clear();
            QCOMPARE(page.proxy()->rowCount(), 3);

            // Unsaved edits are written when another run is selected.
            QVERIFY(selectRun(page, beta));
            QCOMPARE(ed->runUuid(), beta);
            QVERIFY(ed->tagsEdit()->text().isEmpty());
            QTest::keyClicks(ed->tagsEdit(), u"baseline"_qs);
            QVERIFY(selectRun(page, alpha));
            QCOMPARE(tagsCell(page, beta), u"baseline"_qs);
            // Revert drops edits; a comma cannot be typed into a tag, so only storage-level errors remain.
            QTest::keyClicks(ed->tagsEdit(), u", scratch"_qs);
            QVERIFY(ed->isModified());
            ed->revert();
            QVERIFY(!ed->isModified());
        }
        // Reopened page (new connections): the values come from the file.
        HistoryPage again(db);
        QCOMPARE(tagsCell(again, alpha), u"gpu h200, nightly, release-1.2"_qs);
        QCOMPARE(tagsCell(again, beta), u"baseline"_qs);
        QVERIFY(selectRun(again, alpha));
        QCOMPARE(again.notesEditor()->tagsEdit()->text(), u"gpu h200, nightly, release-1.2"_qs);
        QCOMPARE(again.notesEditor()->notesEdit()->toPlainText(), notes);
        HistoryReader reader;
        QVERIFY(reader.open(db.toStdString()).ok());
        auto d = reader.runDetail(alpha.toStdString());
        QVERIFY(d.ok());
        QCOMPARE(d->summary.notes, notes.toStdString());
        QCOMPARE(d->summary.tags, (std::vector<std::string>{"gpu h200", "nightly", "release-1.2"}));
        // The fixture the other tests use is untouched.
        HistoryReader original;
        QVERIFY(original.open(m_db.toStdString()).ok());
        QCOMPARE(original.runDetail(alpha.toStdString())->summary.tags, std::vector<std::string>{"nightly"});
    }

    void compareWithImportedVllm()
    {
        if (!QFileInfo::exists(vllmSample()))
            QSKIP("shared vLLM sample not present");
        const QString db = m_dir.filePath(u"compare.sqlite"_qs);
        StorageWriter writer;
        QVERIFY(writer.open(db.toStdString()).ok());
        const auto ours = TestFixture::storeRun(writer, "ours", {"Chat"}, {"vllm"}, 50, 9);
        QVERIFY(writer.close().ok());
        HistoryPage page(db);
        const Status imported = page.importFile(vllmSample());
        QVERIFY2(imported.ok(), imported.ok() ? "" : imported.error().message.c_str());
        QCOMPARE(page.runsModel()->rowCount(), 2);
        QString vllmUuid;
        for (const RunSummary &r : page.runsModel()->rows())
            if (r.uuid != ours.uuid)
                vllmUuid = QString::fromStdString(r.uuid);
        QVERIFY(!vllmUuid.isEmpty());
        QVERIFY(!page.compareRuns({QString::fromStdString(ours.uuid)}).ok()); // one run is not a comparison
        // As a user does it: select both rows in the runs table, click Compare.
        QTableView *view = page.runsView();
        view->selectAll();
        QCOMPARE(page.selectedRuns().size(), 2);
        QPushButton *compare = nullptr;
        for (QPushButton *b : page.findChildren<QPushButton *>())
            if (b->text() == u"Compare"_qs)
                compare = b;
        QVERIFY(compare);
        QTest::mouseClick(compare, Qt::LeftButton);
        QCOMPARE(int(page.compareWidget()->comparedRuns().size()), 2);
        QStringList comparedIds;
        for (const ReportData &r : page.compareWidget()->comparedRuns())
            comparedIds << QString::fromStdString(r.run.runId);
        QVERIFY(comparedIds.contains(vllmUuid) && comparedIds.contains(QString::fromStdString(ours.uuid)));
        // Baseline first: ours, for the checks below.
        const Status st = page.compareRuns({QString::fromStdString(ours.uuid), vllmUuid});
        QVERIFY2(st.ok(), st.ok() ? "" : st.error().message.c_str());
        const auto &series = page.compareChart()->chart().series;
        QVERIFY(series.size() >= 2);
        bool whole = false, steady = false;
        for (const auto &s : series) {
            whole = whole || s.name.contains(u"(whole"_qs);
            steady = steady || s.name.contains(u"(steady"_qs);
        }
        QVERIFY(whole && steady);
        // Deltas for the headline metric, with better/worse marking consistent with the sign.
        QTableWidget *t = page.comparisonTable();
        QVERIFY(t->rowCount() > 0);
        bool headline = false;
        for (int r = 0; r < t->rowCount(); ++r) {
            if (t->item(r, 2)->text() == u"output_tps_per_gpu"_qs) { // vLLM files carry no GPU count
                QCOMPARE(t->item(r, 6)->text(), u"n/a"_qs);
                continue;
            }
            if (t->item(r, 2)->text() != u"output_tps"_qs)
                continue;
            headline = true;
            const double b = t->item(r, 3)->text().toDouble(), c = t->item(r, 4)->text().toDouble();
            const QString mark = t->item(r, 6)->text();
            QCOMPARE(mark, std::abs(c - b) / b < 0.01 ? u"same"_qs : (c > b ? u"better"_qs : u"worse"_qs));
        }
        QVERIFY(headline);
        // Environment diff names the differing source.
        bool source = false;
        for (int r = 0; r < page.environmentTable()->rowCount(); ++r)
            source = source || page.environmentTable()->item(r, 0)->text() == u"source"_qs;
        QVERIFY(source);
        if (qEnvironmentVariableIsSet("THROUGHLINE_HISTORY_SHOT")) { // manual look at the page
            page.resize(1400, 900);
            page.grab().save(qEnvironmentVariable("THROUGHLINE_HISTORY_SHOT"));
        }
        // Delete the imported run.
        QVERIFY(page.deleteRuns({vllmUuid}).ok());
        QCOMPARE(page.runsModel()->rowCount(), 1);
    }
};

THROUGHLINE_GUI_TEST_MAIN(TstHistoryPage)
#include "tst_historypage.moc"
