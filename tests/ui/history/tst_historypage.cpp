// History models and page: QAbstractItemModelTester, filtering, sorting, run detail, compare with an
// imported vLLM run, exports (CSV, PNG/SVG/PDF plots), the compare tab's comparison PDF, delete.
#include "ui/guitestmain.h"
#include "historyfixture.h"

#include "core/storage/historyreader.h"
#include "ui/history/chartview.h"
#include "ui/history/historycomparewidget.h"
#include "ui/history/historydetailwidget.h"
#include "ui/history/historypage.h"
#include "ui/history/historyroles.h"
#include "ui/history/historyservice.h"
#include "ui/history/pointstablemodel.h"
#include "ui/history/runcomparison.h"
#include "ui/history/runfilterproxy.h"
#include "ui/history/runnoteseditor.h"
#include "ui/history/runstablemodel.h"
#include "ui/report/reportwriter.h"
#include "ui/settings/translationloader.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QDir>
#include <QFileDialog>
#include <QProcess>
#include <QTimer>
#include <QTranslator>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTableView>
#include <QTableWidget>
#include <QTreeWidget>
#include <QtTest>

using namespace Throughline;

class TstHistoryPage : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString m_db;
    std::vector<TestFixture::StoredRun> m_stored;

    static QString tool(const QString &name, const QStringList &args)
    {
        QProcess p;
        p.start(name, args);
        if (!p.waitForFinished(30000) || p.exitCode() != 0)
            return {};
        return QString::fromUtf8(p.readAllStandardOutput()).normalized(QString::NormalizationForm_KC);
    }

    // Clicks `button` and answers the save dialog it opens with `path` (the Qt file dialog: offscreen
    // has no native one).
    static void clickAndSaveAs(QPushButton *button, const QString &path)
    {
        bool answered = false;
        QTimer poll;
        QObject::connect(&poll, &QTimer::timeout, [&] {
            if (auto *d = qobject_cast<QFileDialog *>(QApplication::activeModalWidget())) {
                // Typed as a user does: the whole path into the file name field (selectFile races the
                // dialog's asynchronous directory loading).
                auto *name = d->findChild<QLineEdit *>(u"fileNameEdit"_qs);
                QVERIFY(name);
                name->setText(path);
                QMetaObject::invokeMethod(d, "accept"); // protected in QFileDialog
                answered = true;
                poll.stop();
            }
        });
        poll.start(20);
        QTest::mouseClick(button, Qt::LeftButton);
        QVERIFY(answered);
    }

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

    // On arrival the newest run is selected and shown (never an empty detail while runs exist); its
    // provenance is rows, not a JSON string; a reload keeps the choice, reload(true) moves to the newest;
    // with no runs every pane says what to do instead of drawing empty axes.
    void arrivalShowsNewestRunWithReadableProvenance()
    {
        const QString alpha = QString::fromStdString(m_stored[0].uuid);
        const QString gamma = QString::fromStdString(m_stored[2].uuid); // started last
        HistoryPage page(m_db);
        QCOMPARE(page.currentRun(), gamma);
        QCOMPARE(page.selectedRuns(), QStringList{gamma});
        QVERIFY(!page.curveChart()->showsEmptyText());
        QVERIFY(page.curveChart()->chart().series.front().markerCount() > 0);
        QVERIFY(page.distributionChart()->showsEmptyText()); // synthetic points have no request rows
        QVERIFY(page.distributionChart()->emptyText().contains(u"no stored request rows"_qs));
        const QString header = page.detailWidget()->headerText();
        QVERIFY2(!header.contains(u'{') && header.contains(u"gamma"_qs), qPrintable(header));
        QTreeWidget *prov = page.detailWidget()->provenanceTree();
        const QList<QTreeWidgetItem *> host = prov->findItems(u"host"_qs, Qt::MatchExactly, 0);
        QCOMPARE(host.size(), 1);
        QCOMPARE(host.front()->childCount(), 2);
        bool sawName = false;
        for (int i = 0; i < host.front()->childCount(); ++i)
            sawName = sawName || (host.front()->child(i)->text(0) == u"name"_qs &&
                                  host.front()->child(i)->text(1) == u"testhost"_qs);
        QVERIFY(sawName);
        QCOMPARE(prov->findItems(u"tool_version"_qs, Qt::MatchExactly, 0).front()->text(1), u"0.1.0-test"_qs);

        QVERIFY(page.selectRun(alpha));
        QVERIFY(page.reload().ok());
        QCOMPARE(page.currentRun(), alpha);
        QVERIFY(page.reload(true).ok());
        QCOMPARE(page.currentRun(), gamma);

        HistoryPage empty(m_dir.filePath(u"none.sqlite"_qs));
        QVERIFY(empty.currentRun().isEmpty());
        for (ChartView *c : {empty.curveChart(), empty.distributionChart()}) {
            QVERIFY(c->showsEmptyText());
            QVERIFY2(c->emptyText().contains(u"run the campaign"_qs), qPrintable(c->emptyText()));
        }
        QVERIFY(empty.compareChart()->showsEmptyText());
        QVERIFY(empty.compareChart()->emptyText().contains(u"Compare"_qs));
    }

    // Reloads through the history service: read on its worker thread, applied on the GUI thread, and only
    // the latest of several quick requests is applied; a page gone before the answer is not touched.
    void backgroundReloadLatestWins()
    {
        HistoryService service;
        HistoryPage page(m_db);
        QVERIFY(page.selectRun(QString::fromStdString(m_stored[0].uuid))); // read at once: no service yet
        page.setHistoryService(&service);
        QSignalSpy reloaded(&page, &HistoryPage::reloaded);
        QSignalSpy shown(&page, &HistoryPage::runShown);
        for (int i = 0; i < 5; ++i)
            page.reloadInBackground(i == 4); // the last asks for the newest run
        QTRY_COMPARE(reloaded.count(), 1);
        QTRY_COMPARE(shown.count(), 1);
        QTRY_COMPARE(service.pending(), 0);
        QTest::qWait(50);
        QCOMPARE(reloaded.count(), 1); // the four older requests were skipped or dropped
        QCOMPARE(shown.count(), 1);
        QCOMPARE(service.delivered(), std::uint64_t(2)); // the list once, then the newest run's detail
        QCOMPARE(page.runsModel()->rowCount(), 3);
        QCOMPARE(page.currentRun(), QString::fromStdString(m_stored[2].uuid));
        {
            HistoryPage gone(m_db);
            gone.setHistoryService(&service);
            gone.reloadInBackground();
        }
        QTRY_COMPARE(service.pending(), 0); // answered into nothing, no crash
        QTest::qWait(50);
        QCOMPARE(reloaded.count(), 1);
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
            QVERIFY(ed->tagsEdit()->isEnabled()); // the newest run is shown on arrival
            QCOMPARE(ed->runUuid(), page.currentRun());
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

    // The compare tab's "Comparison PDF…": the same document as `report --compare` of the tab's runs
    // (baseline first), written through the button and its save dialog, read back with poppler-utils; in
    // German when the app's language is German.
    void compareTabPdf()
    {
        if (QStandardPaths::findExecutable(u"pdftotext"_qs).isEmpty())
            QSKIP("poppler-utils not installed");
        const QString db = m_dir.filePath(u"compare-pdf.sqlite"_qs);
        StorageWriter writer;
        QVERIFY(writer.open(db.toStdString()).ok());
        const auto base = TestFixture::storeRun(writer, "demo-like", {"Chat", "Reasoning"}, {"vllm"}, 50, 7);
        const auto cand = TestFixture::storeRun(writer, "demo-like", {"Chat", "Reasoning"}, {"vllm"}, 65, 8);
        QVERIFY(writer.close().ok());
        HistoryPage page(db);
        HistoryCompareWidget *tab = page.compareWidget();
        QPushButton *pdfButton = nullptr;
        for (QPushButton *b : tab->findChildren<QPushButton *>())
            if (b->text() == u"Comparison PDF…"_qs)
                pdfButton = b;
        QVERIFY(pdfButton);
        QVERIFY(!tab->writeComparisonPdf(m_dir.filePath(u"none.pdf"_qs)).ok()); // nothing compared yet
        const QStringList ids{QString::fromStdString(base.uuid), QString::fromStdString(cand.uuid)};
        QVERIFY(page.compareRuns(ids).ok());

        const QString pdf = m_dir.filePath(u"compare-tab.pdf"_qs);
        clickAndSaveAs(pdfButton, pdf);
        QVERIFY(QFileInfo::exists(pdf));
        if (qEnvironmentVariableIsSet("THROUGHLINE_REPORT_KEEP"))
            QFile::copy(pdf, qEnvironmentVariable("THROUGHLINE_REPORT_KEEP") + u"/compare-tab.pdf"_qs);
        const QString info = tool(u"pdfinfo"_qs, {pdf});
        const int pages = QRegularExpression(u"Pages:\\s+(\\d+)"_qs).match(info).captured(1).toInt();
        QVERIFY2(pages >= 1, qPrintable(info));
        const QString text = tool(u"pdftotext"_qs, {u"-layout"_qs, pdf, u"-"_qs});
        QVERIFY(text.contains(u"Comparison report: demo-like"_qs));
        QVERIFY(text.contains(u"Page %1 of %1"_qs.arg(pages)));
        for (const QString &id : ids)
            QVERIFY2(text.contains(id), qPrintable(id));
        QVERIFY(text.contains(u"Deltas per metric at the operating points"_qs));
        QVERIFY(text.contains(u"Frontiers, every run overlaid"_qs));
        // Each scenario's output tok/s/GPU delta row, from the two runs' operating points as stored.
        const auto &runs = tab->comparedRuns();
        QCOMPARE(runs.front().run.runId, base.uuid);
        int rows = 0;
        for (const ScenarioResult &b : runs[0].run.scenarios)
            for (const ScenarioResult &c : runs[1].run.scenarios) {
                if (b.id != c.id || b.verdict.operatingPoint < 0 || c.verdict.operatingPoint < 0)
                    continue;
                const double bv = b.points[std::size_t(b.verdict.operatingPoint)].metrics.outputTpsPerGpu;
                const double cv = c.points[std::size_t(c.verdict.operatingPoint)].metrics.outputTpsPerGpu;
                const QString sign = cv > bv ? u"+"_qs : QString();
                const QString row = QRegularExpression::escape(ReportWriter::number(bv, 1)) + u"\\s+"_qs +
                                    QRegularExpression::escape(ReportWriter::number(cv, 1)) + u"\\s+"_qs +
                                    QRegularExpression::escape(sign + ReportWriter::number(cv - bv, 1));
                QVERIFY2(text.contains(QRegularExpression(row)), qPrintable(row));
                ++rows;
            }
        QVERIFY(rows >= 2);
        // The very document of report --compare: the same text as ReportWriter::writeComparison of the
        // same runs read afresh from the database.
        HistoryReader reader;
        QVERIFY(reader.open(db.toStdString()).ok());
        std::vector<ReportData> fresh;
        for (const QString &id : ids)
            fresh.push_back(*ReportData::fromHistory(reader, id.toStdString()));
        const QString cliPdf = m_dir.filePath(u"compare-cli.pdf"_qs);
        QVERIFY(ReportWriter::writeComparison(fresh, cliPdf, {}).ok());
        QCOMPARE(tool(u"pdftotext"_qs, {u"-layout"_qs, cliPdf, u"-"_qs}), text);

        // In the app's language.
        QVERIFY(TranslationLoader::install(QCoreApplication::instance(), u"de"_qs));
        const QString de = m_dir.filePath(u"compare-tab-de.pdf"_qs);
        clickAndSaveAs(pdfButton, de);
        for (QTranslator *t : QCoreApplication::instance()->findChildren<QTranslator *>()) {
            QCoreApplication::removeTranslator(t);
            delete t;
        }
        const QString deText = tool(u"pdftotext"_qs, {u"-layout"_qs, de, u"-"_qs});
        QVERIFY2(deText.contains(u"Vergleichsbericht: demo-like"_qs), qPrintable(deText.left(300)));
        QVERIFY(deText.contains(u"Differenzen je Metrik an den Betriebspunkten"_qs));
        QVERIFY(!deText.contains(u"Deltas per metric"_qs));
    }
};

THROUGHLINE_GUI_TEST_MAIN(TstHistoryPage)
#include "tst_historypage.moc"
