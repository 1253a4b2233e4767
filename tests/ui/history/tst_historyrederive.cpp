// Re-derivation against the engine's own numbers: the demo campaign (plus an open-loop point) runs on the
// in-process simulated endpoint, is judged and recorded by recordRun exactly as the GUI and the CLI do, and
// the history's re-derived throughput (PointDeriver: stored request rows + event blobs) must equal what the
// engine stored at run time from the raw records — steady state (the default) and the `whole` variant — for
// every point. With the event blobs pruned, the stored value is kept and the views say so. A run the user
// stops is recorded "stopped" / "not_run", never "fail".
#include "ui/guitestmain.h"

#include "core/sim/simlauncher.h"
#include "common/demoscenario.h"
#include "core/metrics/pointresult.h"
#include "core/storage/historyreader.h"
#include "core/run/runrecording.h"
#include "core/storage/sqlitedb.h"
#include "ui/history/derivecontrols.h"
#include "ui/history/derivedpointstablemodel.h"
#include "ui/history/historypage.h"
#include "ui/report/reportcomposer.h"
#include "ui/report/reportdata.h"
#include "ui/report/reportwriter.h"

#include <QLabel>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTableWidget>
#include <QtTest>

#include <cmath>

using namespace Throughline;

namespace {

bool close(double a, double b, double rel = 1e-9)
{
    return std::isfinite(a) && std::isfinite(b) &&
           std::abs(a - b) <= rel * std::max(std::abs(a), std::abs(b));
}

} // namespace

class TstHistoryRederive : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString m_db;
    std::string m_uuid;
    std::vector<Scenario> m_demo;

    Result<RunOutcome> run(const std::vector<Scenario> &scenarios, RunOptions opt = {}) const
    {
        opt.workers = 2;
        opt.simLauncher = SimLauncher(&launchSimulator);
        opt.scrapeTelemetry = false;
        RunController rc(scenarios, opt);
        return rc.run();
    }

    // Every stored point of the run with its parsed aggregates and its scenario row.
    struct Stored {
        PointRow row;
        PointResult result;
        ScenarioRow scenario;
    };
    std::vector<Stored> storedPoints(HistoryReader &reader)
    {
        std::vector<Stored> out;
        auto detail = reader.runDetail(m_uuid);
        if (!detail)
            return out;
        for (const PointRow &p : detail->points) {
            auto parsed = PointResult::fromJson(p.aggregates);
            if (!parsed)
                continue;
            for (const ScenarioRow &s : detail->scenarios)
                if (s.id == p.scenarioId)
                    out.push_back({p, *parsed, s});
        }
        return out;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_db = m_dir.filePath(u"history.sqlite"_qs);
        auto campaign = TestSupport::demoCampaign();
        QVERIFY2(campaign.ok(), TestSupport::errorText(campaign));
        auto list = TestSupport::demoScenarios();
        QVERIFY2(list.ok(), TestSupport::errorText(list));
        QCOMPARE(list->size(), std::size_t(2));
        m_demo = *list;
        // The demo (closed loop C = 4, 8, 16, 32 with warm-up) plus one open-loop scenario (Poisson, warm-up
        // in seconds, W1 = end of the arrival schedule).
        std::vector<Scenario> scenarios = m_demo;
        Scenario open = m_demo.front();
        open.id += "/open";
        open.plan.mode = LoadPlan::Mode::Open;
        open.plan.rates = {40};
        open.plan.requestCount = 120;
        open.plan.warmupS = 0.3;
        scenarios.push_back(open);
        auto out = run(scenarios);
        QVERIFY2(out.ok(), out.ok() ? "" : out.error().message.c_str());
        QCOMPARE(out->scenarios.size(), std::size_t(3));
        const RunResults res = runResultsFromOutcome(*out, campaign->name, std::string(64, '0'), {});
        RunRecordingInfo info;
        info.campaignJson = "{}";
        const Status st = recordRun(m_db.toStdString(), *out, res, info);
        QVERIFY2(st.ok(), st.ok() ? "" : st.error().message.c_str());
        m_uuid = out->runId;
    }

    void defaultEqualsStoredThroughput()
    {
        HistoryReader reader;
        QVERIFY(reader.open(m_db.toStdString()).ok());
        const auto points = storedPoints(reader);
        QCOMPARE(points.size(), std::size_t(9)); // 2 × 4 closed-loop points + 1 open-loop point
        DeriveVariant steady;
        steady.rederive = true; // default settings otherwise: p90, steady window, per GPU
        DeriveVariant whole = steady;
        whole.window = DeriveVariant::Window::Whole;
        int withWarmupTokens = 0;
        for (const Stored &p : points) {
            const QByteArray where =
                QByteArray::fromStdString(p.row.scenarioKey) + " #" + QByteArray::number(p.row.pointIndex);
            QVERIFY2(p.result.metrics.outputTps > 0, where.constData());
            auto s = PointDeriver::derive(reader, p.row, p.scenario, steady);
            QVERIFY2(s.ok(), s.ok() ? "" : s.error().message.c_str());
            QVERIFY2(s->fromRequests && !s->storedThroughput, where.constData());
            const QByteArray steadyMsg = where + ": " + QByteArray::number(s->outputTps, 'g', 17) +
                                         " vs stored " +
                                         QByteArray::number(p.result.metrics.outputTps, 'g', 17);
            QVERIFY2(close(s->outputTps, p.result.metrics.outputTps), steadyMsg.constData());
            QVERIFY2(close(s->outputTpsPerGpu, p.result.metrics.outputTpsPerGpu), where.constData());
            QVERIFY2(close(s->windowS, p.result.windowS), where.constData());
            auto w = PointDeriver::derive(reader, p.row, p.scenario, whole);
            QVERIFY2(w.ok(), w.ok() ? "" : w.error().message.c_str());
            const QByteArray wholeMsg = where + ": whole " + QByteArray::number(w->outputTps, 'g', 17) +
                                        " vs stored " +
                                        QByteArray::number(p.result.metrics.outputTpsWhole, 'g', 17);
            QVERIFY2(close(w->outputTps, p.result.metrics.outputTpsWhole), wholeMsg.constData());
            // Same measured set as the engine: the n_ok of the aggregates.
            QCOMPARE(s->nOk, p.result.nOk);
            // The two definitions really differ (otherwise this test could not tell them apart).
            withWarmupTokens += std::abs(p.result.metrics.outputTps - p.result.metrics.outputTpsWhole) >
                                1e-6 * p.result.metrics.outputTps;
        }
        QVERIFY(withWarmupTokens >= 4);
    }

    void detailViewShowsEqualThroughput()
    {
        HistoryPage page(m_db);
        QVERIFY(page.showRun(QString::fromStdString(m_uuid)));
        DeriveVariant v;
        v.rederive = true;
        page.detailDeriveControls()->setVariant(v);
        const DerivedPointsTableModel *m = page.derivedModel();
        QCOMPARE(m->rowCount(), 9);
        for (int r = 0; r < m->rowCount(); ++r) {
            const auto stored = PointResult::fromJson(m->row(r).point.aggregates);
            QVERIFY(stored.ok());
            QVERIFY(close(m->row(r).values.outputTps, stored->metrics.outputTps));
            QCOMPARE(m->index(r, DerivedPointsTableModel::Source).data().toString(), u"re-derived"_qs);
        }
        QVERIFY(page.detailDeriveControls()->noteLabel()->isHidden());
    }

    // The PDF report of the stored simulated demo run, in A4 and Letter: every scenario id with its verdict
    // as stored, three sampled table values equal to the database, embedded fonts, no raster images.
    void reportOfSimulatedDemoRun_data()
    {
        QTest::addColumn<QString>("paper");
        QTest::addColumn<double>("widthPt");
        QTest::newRow("a4") << u"a4"_qs << 595.0;
        QTest::newRow("letter") << u"letter"_qs << 612.0;
    }
    void reportOfSimulatedDemoRun()
    {
        QFETCH(QString, paper);
        QFETCH(double, widthPt);
        if (QStandardPaths::findExecutable(u"pdftotext"_qs).isEmpty())
            QSKIP("poppler-utils not installed");
        auto tool = [](const QString &name, const QStringList &args) {
            QProcess p;
            p.start(name, args);
            return p.waitForFinished(30000) && p.exitCode() == 0
                       ? QString::fromUtf8(p.readAllStandardOutput())
                       : QString();
        };
        HistoryReader reader;
        QVERIFY(reader.open(m_db.toStdString()).ok());
        auto data = ReportData::fromHistory(reader, m_uuid);
        QVERIFY(data.ok());
        const QString pdf = m_dir.filePath(u"demo-"_qs + paper + u".pdf"_qs);
        ReportWriter::Options options;
        options.paper = *ReportWriter::parsePaper(paper);
        const Status st = ReportWriter::write(*data, pdf, options);
        QVERIFY2(st.ok(), st.ok() ? "" : st.error().message.c_str());
        const QString text =
            tool(u"pdftotext"_qs, {u"-layout"_qs, pdf, u"-"_qs}).normalized(QString::NormalizationForm_KC);
        auto detail = reader.runDetail(m_uuid);
        QVERIFY(detail.ok());
        for (const ScenarioRow &sc : detail->scenarios) {
            QVERIFY(!sc.verdict.empty());
            // The heading prints the verdict in the report's words (no_target → "no target").
            const QString heading =
                QString::fromStdString(sc.key) + u" — "_qs + ReportComposer::verdictText(sc.verdict);
            QVERIFY2(text.contains(heading),
                     qPrintable(heading + u" not in: "_qs +
                                text.mid(std::max<qsizetype>(0, text.indexOf(QString::fromStdString(sc.key))),
                                         160)));
        }
        const int n = int(detail->points.size());
        for (int i : {0, n / 2, n - 1}) {
            const PointRow &p = detail->points[std::size_t(i)];
            const QString tps = ReportWriter::number(p.outputTpsPerGpu, 1);
            QVERIFY2(text.contains(tps), qPrintable(tps));
        }
        const QStringList fonts = tool(u"pdffonts"_qs, {pdf}).split(u'\n', Qt::SkipEmptyParts).mid(2);
        QVERIFY(!fonts.isEmpty());
        for (const QString &l : fonts) {
            const QStringList cols = l.split(QRegularExpression(u"\\s+"_qs), Qt::SkipEmptyParts);
            QVERIFY2(cols.size() >= 5 && cols.at(cols.size() - 5) == u"yes"_qs, qPrintable(l));
        }
        QCOMPARE(tool(u"pdfimages"_qs, {u"-list"_qs, pdf}).split(u'\n', Qt::SkipEmptyParts).size(), 2);
        const QRegularExpressionMatch m =
            QRegularExpression(u"Page size:\\s+([0-9.]+) x"_qs).match(tool(u"pdfinfo"_qs, {pdf}));
        QVERIFY(m.hasMatch() && std::abs(m.captured(1).toDouble() - widthPt) < 2);
    }

    // Last: prunes the event blobs of the copy it works on.
    void prunedEventsKeepStoredValueWithNote()
    {
        const QString copy = m_dir.filePath(u"pruned.sqlite"_qs);
        QVERIFY(QFile::copy(m_db, copy));
        {
            SqliteDb db;
            QVERIFY(db.open(copy.toStdString(), SqliteDb::Mode::ReadWrite).ok());
            QVERIFY(db.exec("DELETE FROM request_events").ok());
        }
        HistoryReader reader;
        QVERIFY(reader.open(copy.toStdString()).ok());
        const auto points = storedPoints(reader); // from the copy
        QCOMPARE(points.size(), std::size_t(9));
        DeriveVariant whole;
        whole.rederive = true;
        whole.percentile = 50;
        whole.window = DeriveVariant::Window::Whole;
        for (const Stored &p : points) {
            auto v = PointDeriver::derive(reader, p.row, p.scenario, whole);
            QVERIFY2(v.ok(), v.ok() ? "" : v.error().message.c_str());
            QVERIFY(v->fromRequests && v->storedThroughput);
            QVERIFY(close(v->outputTps, p.result.metrics.outputTpsWhole));
            // Latencies still come from the request rows: p50 of the stored samples, not the stored p90.
            if (v->nOk >= 20) // p50 needs n ≥ 20 (min-n rule)
                QVERIFY(std::isfinite(v->ttftMs));
        }
        HistoryPage page(copy);
        QVERIFY(page.showRun(QString::fromStdString(m_uuid)));
        page.detailDeriveControls()->setVariant(whole);
        QLabel *note = page.detailDeriveControls()->noteLabel();
        QVERIFY(!note->isHidden());
        QVERIFY2(note->text().contains(u"9 point(s)"_qs) && note->text().contains(u"pruned"_qs),
                 qPrintable(note->text()));
        QVERIFY(page.derivedModel()
                    ->index(0, DerivedPointsTableModel::Source)
                    .data()
                    .toString()
                    .contains(u"events pruned"_qs));
        // Back to stored values: no note.
        page.detailDeriveControls()->setVariant(DeriveVariant{});
        QVERIFY(note->isHidden());
    }

    void stoppedRunIsNotFail()
    {
        // Two scenarios, two points each, and a target the stopped scenario would fail: the user stops
        // after the first point, in-flight requests finish, the second scenario never starts.
        std::vector<Scenario> scenarios = m_demo;
        for (Scenario &s : scenarios) {
            s.plan.concurrencies = {1, 4};
            s.plan.requestCount = 0; // 10 × C: the demo's fixed 210 requests would make C=1 slow
        }
        RunController *controller = nullptr;
        RunOptions opt;
        opt.onPointFinished = [&](const ScenarioOutcome &, const PointOutcome &) {
            if (controller)
                controller->stopSending();
        };
        opt.workers = 2;
        opt.simLauncher = SimLauncher(&launchSimulator);
        opt.scrapeTelemetry = false;
        RunController rc(scenarios, opt);
        controller = &rc;
        auto out = rc.run();
        QVERIFY2(out.ok(), out.ok() ? "" : out.error().message.c_str());
        QCOMPARE(out->scenarios.size(), std::size_t(1));
        QVERIFY(stoppedByUser(out->scenarios[0]));
        QVERIFY(!out->cancelled);
        TargetRow unreachable;
        unreachable.metric = "output_tps_per_gpu";
        unreachable.value = 1e9;
        unreachable.source = "test";
        const RunResults res =
            runResultsFromOutcome(*out, "stopped", std::string(64, '0'),
                                  [&](const Scenario &) { return std::vector{unreachable}; });
        // Judged on its few measured points the scenario fails (or is invalid: low sample) — what the
        // recording must not keep.
        const Verdict::Status judged = res.scenarios[0].verdict.status;
        QVERIFY(judged == Verdict::Status::Fail || judged == Verdict::Status::Invalid);
        const QString db = m_dir.filePath(u"stopped.sqlite"_qs);
        RunRecordingInfo info;
        info.campaignJson = "{}";
        info.plannedScenarios = scenarios;
        const Status st = recordRun(db.toStdString(), *out, res, info);
        QVERIFY2(st.ok(), st.ok() ? "" : st.error().message.c_str());

        HistoryReader reader;
        QVERIFY(reader.open(db.toStdString()).ok());
        auto detail = reader.runDetail(out->runId);
        QVERIFY(detail.ok());
        QCOMPARE(detail->scenarios.size(), std::size_t(2));
        QCOMPARE(detail->scenarios[0].verdict, std::string("stopped"));
        QVERIFY(detail->scenarios[0].verdictJson.value("note", std::string()).find("stopped by the user") ==
                0);
        QCOMPARE(detail->scenarios[0].verdictJson["judged"].value("status", std::string()),
                 std::string(verdictStatusKey(judged)));
        QCOMPARE(detail->scenarios[1].verdict, std::string("not_run"));
        QCOMPARE(detail->scenarios[1].key, scenarios[1].id);
        QVERIFY(detail->summary.verdict != "fail" && detail->summary.verdict != "invalid");
        // The measured figures are kept: the first point with its aggregates.
        QCOMPARE(detail->summary.pointCount, 1);
        auto listed = reader.listRuns(*HistoryReader::parseFilter("verdict=fail"));
        QVERIFY(listed.ok() && listed->empty());

        // The PDF report's verdict words too.
        auto report = ReportData::fromHistory(reader, out->runId);
        QVERIFY(report.ok() && report->run.scenarios.size() == 2);
        QCOMPARE(report->verdictKey(report->run.scenarios[0]), std::string("stopped"));
        QCOMPARE(report->verdictKey(report->run.scenarios[1]), std::string("not_run"));
        // The history page shows the same words as the run page.
        HistoryPage page(db);
        QVERIFY(page.showRun(QString::fromStdString(out->runId)));
        QTableWidget *table = page.scenariosTable();
        QCOMPARE(table->item(0, 1)->text(), u"stopped"_qs);
        QVERIFY(table->item(0, 1)->toolTip().contains(u"stopped by the user"_qs));
        QCOMPARE(table->item(1, 1)->text(), u"not run"_qs);
    }
};

THROUGHLINE_GUI_TEST_MAIN(TstHistoryRederive)
#include "tst_historyrederive.moc"
