// Run detail and compare on stored runs with request rows and telemetry: the run-monitor plots redrawn
// from the database (checked against independent SQL sums), re-derivation under another percentile /
// window / per-GPU divisor (checked against percentiles computed here from the stored samples), per-phase
// bars and the MLPerf step mode of the compare overlay; the same views through the HistoryService (every
// read on its worker — SQLite's own open hook counts the connections per thread —, only the latest of quick
// selections applied, equal to the direct reads). THROUGHLINE_HISTORY_SHOT_DIR=dir saves history-detail.png
// and history-compare-rederived.png there.
#include "ui/guitestmain.h"

#include "../cellfit.h"
#include "historyfixture.h"

#include "core/storage/historyreader.h"
#include "core/storage/sqlitedb.h"
#include "core/storage/telemetryreader.h"
#include "ui/history/chartview.h"
#include "ui/history/derivecontrols.h"
#include "ui/history/derivedpointstablemodel.h"
#include "ui/history/historycomparewidget.h"
#include "ui/history/historydetailwidget.h"
#include "ui/history/historypage.h"
#include "ui/history/historyservice.h"
#include "ui/history/mlperfcurveview.h"
#include "ui/history/pointstablemodel.h"
#include "ui/history/runcomparison.h"
#include "ui/history/runtimeline.h"
#include "ui/history/runstablemodel.h"
#include "ui/history/runtimelineview.h"
#include "ui/report/reportwriter.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontMetrics>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTimer>
#include <QtTest>

#include <sqlite3.h>

#include <mutex>
#include <thread>

using namespace Throughline;

namespace {

// Every SQLite connection opened in the process on one database file, counted per thread: SQLite calls its
// auto-extensions on the thread that opens a connection, with the connection's file already attached.
class SqliteOpenRecorder
{
public:
    explicit SqliteOpenRecorder(const QString &path)
    {
        std::lock_guard lock(s_mutex);
        s_path = QFileInfo(path).canonicalFilePath();
        s_gui = std::this_thread::get_id();
        s_guiOpens = s_otherOpens = 0;
        sqlite3_auto_extension(reinterpret_cast<void (*)()>(&SqliteOpenRecorder::opened));
    }
    ~SqliteOpenRecorder()
    {
        sqlite3_cancel_auto_extension(reinterpret_cast<void (*)()>(&SqliteOpenRecorder::opened));
    }
    int guiOpens() const
    {
        std::lock_guard lock(s_mutex);
        return s_guiOpens;
    }
    int otherOpens() const
    {
        std::lock_guard lock(s_mutex);
        return s_otherOpens;
    }

private:
    static int opened(sqlite3 *db, const char **, const sqlite3_api_routines *)
    {
        const char *file = sqlite3_db_filename(db, "main");
        const QString path = file ? QFileInfo(QString::fromUtf8(file)).canonicalFilePath() : QString();
        std::lock_guard lock(s_mutex);
        if (!path.isEmpty() && path == s_path)
            ++(std::this_thread::get_id() == s_gui ? s_guiOpens : s_otherOpens);
        return SQLITE_OK;
    }
    static inline std::mutex s_mutex;
    static inline QString s_path;
    static inline std::thread::id s_gui;
    static inline int s_guiOpens = 0, s_otherOpens = 0;
};

} // namespace

class TstHistoryDetail : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString m_db;
    TestFixture::StoredRun m_a, m_b, m_plain;
    TestFixture::TelemetryCounts m_counts;

    static double pct(std::vector<double> v, double q) { return RunTimeline::percentile(std::move(v), q); }

    double sqlDouble(const std::string &sql)
    {
        SqliteDb db;
        if (!db.open(m_db.toStdString(), SqliteDb::Mode::ReadOnly))
            return std::nan("");
        auto st = db.prepare(sql);
        if (!st || st->step() != 100)
            return std::nan("");
        return st->colDouble(0);
    }

    // Column index by header prefix ("TTFT", "n ok", …) of the model shown in the points view.
    static int column(const QAbstractItemModel *m, const QString &prefix)
    {
        for (int c = 0; c < m->columnCount(); ++c)
            if (m->headerData(c, Qt::Horizontal).toString().startsWith(prefix))
                return c;
        return -1;
    }

private slots:
    void initTestCase()
    {
        m_db = m_dir.filePath(u"detail.sqlite"_qs);
        StorageWriter writer;
        QVERIFY(writer.open(m_db.toStdString()).ok());
        m_a = TestFixture::storeRunWithRequests(writer, "candidate-a", {"Chat", "Reasoning"}, 1200, 11, 1.0,
                                                8, &m_counts);
        m_b = TestFixture::storeRunWithRequests(writer, "candidate-b", {"Chat", "Reasoning"}, 1200, 12, 1.25);
        m_plain = TestFixture::storeRun(writer, "aggregates-only", {"Chat", "Reasoning"}, {"vllm"}, 50, 13);
        QVERIFY(writer.flush().ok());
        QVERIFY(writer.close().ok());
    }

    void runsTableShowsStartAndCampaignWhole()
    {
        HistoryPage page(m_db);
        page.resize(1440, 900);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QTRY_VERIFY(page.runsView()->model()->rowCount() == 3);
        QTest::qWait(50); // the queued re-measure after the listing
        QTableView *view = page.runsView();
        for (int r = 0; r < view->model()->rowCount(); ++r)
            for (int c :
                 {int(RunsTableModel::Started), int(RunsTableModel::Campaign), int(RunsTableModel::Source)}) {
                const QString cut = TestFixture::cellCutOff(view, r, c);
                QVERIFY2(cut.isEmpty(), qPrintable(cut));
            }
    }

    void scenarioIdsKeepTheirEndInNarrowPanes()
    {
        HistoryPage page(m_db);
        page.resize(1440, 900);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QVERIFY(page.showRun(QString::fromStdString(m_a.uuid)));
        for (QTableView *view : {static_cast<QTableView *>(page.scenariosTable()), page.pointsView()}) {
            const int scenarioCol = 0;
            view->setColumnWidth(scenarioCol, 60); // narrower than any id
            QCOMPARE(view->textElideMode(), Qt::ElideMiddle);
            QVERIFY(!view->wordWrap());
            const QFontMetrics fm(view->font());
            for (int r = 0; r < view->model()->rowCount(); ++r) {
                const QString id = view->model()->index(r, scenarioCol).data().toString();
                const QString shown = fm.elidedText(id, view->textElideMode(), 60);
                QVERIFY2(shown != id && id.endsWith(shown.mid(shown.indexOf(QChar(0x2026)) + 1)),
                         qPrintable(id + u" shown as "_qs + shown));
            }
        }
    }

    void timelineFromStoredRows()
    {
        HistoryPage page(m_db);
        QVERIFY(page.showRun(QString::fromStdString(m_a.uuid)));
        RunTimelineView *tv = page.timelineView();
        QCOMPARE(tv->scenarioCombo()->count(), 2);
        QCOMPARE(tv->scenarioCombo()->currentData().toInt(), 0);
        const std::string scenario0 =
            "FROM requests q JOIN points p ON p.id = q.point_id JOIN scenarios s ON "
            "s.id = p.scenario_id JOIN runs r ON r.id = s.run_id WHERE r.uuid = '" +
            m_a.uuid + "' AND s.idx = 0";
        const RunTimeline::Series t = tv->timeline(); // a copy: the view recomputes on scenario change
        // Every stored row of the scenario counted; output tokens and request·seconds integrate back to the
        // database's sums (bucket values × width).
        QCOMPARE(double(t.requests), sqlDouble("SELECT count(*) " + scenario0));
        QCOMPARE(double(t.outputTokens),
                 sqlDouble("SELECT sum(n_out) " + scenario0 + " AND error_class = 0"));
        double tokens = 0, inFlight = 0;
        for (const QPointF &p : t.outputTps)
            tokens += p.y() * t.bucketS;
        for (const QPointF &p : t.inFlight)
            inFlight += p.y() * t.bucketS;
        QVERIFY(std::abs(tokens - double(t.outputTokens)) < 1e-6 * double(t.outputTokens));
        const double busyS = sqlDouble("SELECT sum(t_end_ns - t_send_ns) / 1e9 " + scenario0);
        QVERIFY2(std::abs(inFlight - busyS) < 1e-6 * busyS,
                 qPrintable(u"%1 vs %2"_qs.arg(inFlight).arg(busyS)));
        // Bucketed percentiles: the chart shows exactly the timeline's series; one marker per load point.
        const auto &ttft = tv->chart(RunTimelineView::Ttft)->chart();
        QCOMPARE(ttft.series.size(), 3);
        QCOMPARE(ttft.series[0].positions(), t.ttftP50);
        QVERIFY(!t.ttftP50.isEmpty());
        QCOMPARE(ttft.references.size(), 3);
        QCOMPARE(ttft.references[0].label, u"C=4"_qs);

        // Telemetry on the client time axis: every stored sample, values as stored (KV cache in %).
        TelemetryReader reader;
        QVERIFY(reader.open(m_db.toStdString()));
        TelemetryQuery q;
        q.scenarioIndex = 0;
        q.metrics = {"kv_cache_usage"};
        auto kv = reader.series(m_a.uuid, q);
        QVERIFY(kv && kv->size() == 1);
        const auto &kvChart = tv->chart(RunTimelineView::KvCache)->chart();
        QCOMPARE(kvChart.series.size(), 1);
        QCOMPARE(kvChart.series[0].points.size(), qsizetype(kv->front().samples.size()));
        QCOMPARE(kvChart.series[0].points.size(), qsizetype(m_counts.samplesPerSeries[0]));
        QCOMPARE(kvChart.series[0].points[3].x, double(kv->front().samples[3].tNs) / 1e9);
        QCOMPARE(kvChart.series[0].points[3].y, kv->front().samples[3].value * 100);
        QCOMPARE(tv->chart(RunTimelineView::GpuPower)->chart().series.size(), 2); // two GPUs
        QCOMPARE(tv->chart(RunTimelineView::InFlight)->chart().series.size(),
                 3); // client + running + waiting
        QCOMPARE(tv->chart(RunTimelineView::Throughput)->chart().series.size(), 2); // client + server
        QCOMPARE(tv->telemetrySeriesCount(), m_counts.seriesPerScenario);

        // Scenario selector: the second scenario's rows and samples.
        tv->scenarioCombo()->setCurrentIndex(1);
        QCOMPARE(tv->chart(RunTimelineView::KvCache)->chart().series[0].points.size(),
                 qsizetype(m_counts.samplesPerSeries[1]));
        QVERIFY(tv->timeline().t0S > t.t1S); // scenario 1 ran after scenario 0

        // A run stored without request rows or telemetry: empty panels, named as not stored.
        QVERIFY(page.showRun(QString::fromStdString(m_plain.uuid)));
        QCOMPARE(tv->timeline().requests, 0);
        QCOMPARE(tv->telemetrySeriesCount(), 0);
        QVERIFY(tv->chart(RunTimelineView::GpuPower)->chart().title.contains(u"not stored"_qs));
    }

    void rederive()
    {
        HistoryPage page(m_db);
        QAbstractItemModelTester tester(page.derivedModel(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(page.showRun(QString::fromStdString(m_a.uuid)));
        auto *proxy = qobject_cast<QSortFilterProxyModel *>(page.pointsView()->model());
        QVERIFY(proxy);
        QCOMPARE(proxy->sourceModel(),
                 static_cast<QAbstractItemModel *>(page.pointsModel())); // stored default
        // Recorded order (scenario, point) until the user sorts: sorting on alone starts at column 0
        // descending, which put the last scenario first.
        QCOMPARE(page.pointsView()->horizontalHeader()->sortIndicatorSection(), -1);
        for (int r = 0; r < proxy->rowCount(); ++r)
            QCOMPARE(proxy->index(r, 0).data(HistoryRoles::RowIndexRole).toInt(), r);
        DeriveControls *dc = page.detailDeriveControls();
        dc->rederiveBox()->setChecked(true);
        dc->percentileCombo()->setCurrentIndex(dc->percentileCombo()->findData(50));
        QCOMPARE(proxy->sourceModel(), static_cast<QAbstractItemModel *>(page.derivedModel()));
        const DerivedPointsTableModel *m = page.derivedModel();
        QCOMPARE(m->rowCount(), 6);
        const int ttftCol = column(m, u"TTFT"_qs), nOkCol = column(m, u"n ok"_qs);
        QCOMPARE(m->headerData(ttftCol, Qt::Horizontal).toString(), u"TTFT p50 ms"_qs);
        HistoryReader reader;
        QVERIFY(reader.open(m_db.toStdString()));
        std::vector<int> steadyOk;
        for (int r = 0; r < m->rowCount(); ++r) {
            const DerivedPointRow &row = m->row(r);
            QVERIFY(row.values.fromRequests);
            QCOMPARE(m->index(r, DerivedPointsTableModel::Source).data().toString(), u"re-derived"_qs);
            // The stored window covers exactly the non-warm-up sends: p50 of the stored samples.
            auto samples = reader.samples(row.point.id, "ttft_ms");
            QVERIFY(samples && samples->size() > 1000);
            const double expected = pct(*samples, 50);
            QVERIFY2(
                std::abs(m->index(r, ttftCol).data().toString().toDouble() - expected) < 0.051,
                qPrintable(m->index(r, ttftCol).data().toString() + u" vs "_qs + QString::number(expected)));
            // p50 differs from the stored p90 shown before.
            QVERIFY(std::abs(expected - row.point.ttftMsP90) > 1.0);
            QCOMPARE(m->index(r, nOkCol).data().toInt(), int(samples->size()));
            steadyOk.push_back(m->index(r, nOkCol).data().toInt());
        }
        // The curve follows: y = 1000 / TPOT p50 of the first scenario's points, labelled with the variant.
        const auto &curve = page.curveChart()->chart();
        QVERIFY(curve.title.contains(u"re-derived p50"_qs));
        QCOMPARE(curve.series.size(), 2);
        QVERIFY(std::abs(curve.series[0].points[0].y - 1000.0 / m->row(0).values.tpotMs) < 1e-9);
        // Whole-run throughput (vLLM/AIPerf): Σ N_out of the successful measured requests ÷ (max t_end −
        // min t_send) of those, summed here with SQL; the measured set (n ok) stays the same.
        dc->windowCombo()->setCurrentIndex(1);
        for (int r = 0; r < m->rowCount(); ++r) {
            QCOMPARE(m->index(r, nOkCol).data().toInt(), steadyOk[std::size_t(r)]);
            const std::string where =
                " FROM requests WHERE point_id = " + std::to_string(m->row(r).point.id) +
                " AND (flags & 1) = 0 AND error_class = 0";
            const double expected = sqlDouble("SELECT sum(n_out)" + where) /
                                    (sqlDouble("SELECT max(t_end_ns) - min(t_send_ns)" + where) / 1e9);
            QVERIFY2(std::abs(m->row(r).values.outputTps - expected) < 1e-9 * expected,
                     qPrintable(QString::number(m->row(r).values.outputTps) + u" vs "_qs +
                                QString::number(expected)));
        }
        // Divisor: total instead of per GPU (8 GPUs).
        const int perGpuCol = DerivedPointsTableModel::OutTpsPerGpu;
        const double perGpu = m->row(0).values.outputTpsPerGpu;
        dc->gpusCombo()->setCurrentIndex(2);
        QCOMPARE(m->headerData(perGpuCol, Qt::Horizontal).toString(), u"Out tok/s ÷ 1 GPU"_qs);
        QVERIFY(std::abs(m->row(0).values.outputTpsPerGpu - 8 * perGpu) < 1e-6 * perGpu);
        // Back to stored p90: the stored model again.
        dc->setVariant(DeriveVariant{});
        QCOMPARE(proxy->sourceModel(), static_cast<QAbstractItemModel *>(page.pointsModel()));
        QVERIFY(page.curveChart()->chart().title.contains(u"stored"_qs));
    }

    void compareBarsAndStepMode()
    {
        HistoryPage page(m_db);
        const QStringList uuids{QString::fromStdString(m_a.uuid), QString::fromStdString(m_b.uuid),
                                QString::fromStdString(m_plain.uuid)};
        const Status st = page.compareRuns(uuids);
        QVERIFY2(st.ok(), st.ok() ? "" : st.error().message.c_str());
        // One bar group per phase, one bar per run.
        const auto &bars = page.phaseBarsChart()->chart();
        QCOMPARE(bars.xCategories, (QStringList{u"Chat"_qs, u"Reasoning"_qs}));
        QCOMPARE(bars.series.size(), 3);
        int n = 0;
        for (const auto &s : bars.series) {
            QVERIFY(s.bars);
            n += int(s.points.size());
        }
        QCOMPARE(n, 2 * 3);
        // Bar heights: the stored output tok/s per GPU at each run's operating point.
        HistoryReader reader;
        QVERIFY(reader.open(m_db.toStdString()));
        auto b = ReportData::fromHistory(reader, m_b.uuid);
        QVERIFY(b);
        const ScenarioResult &bChat = b->run.scenarios[0];
        const int op = RunComparison::operatingPoint(bChat);
        QVERIFY(op >= 0);
        QCOMPARE(bars.series[1].points[0].y, bChat.points[std::size_t(op)].metrics.outputTpsPerGpu);
        QVERIFY(bars.series[1].points[0].x < 0.5 && bars.series[1].points[1].x > 0.5);

        // TTFT p99 bars from the stored aggregates (runs with ≥ 1,000 measured requests at the point).
        page.barMetricCombo()->setCurrentIndex(1);
        QVERIFY(page.phaseBarsChart()->chart().yLabel.contains(u"TTFT p99"_qs));
        const double storedP99 = *bChat.points[std::size_t(op)].metricValue("ttft_ms", "p99");
        QCOMPARE(page.phaseBarsChart()->chart().series[1].points[0].y, storedP99);

        // Step mode toggles every overlaid curve's line style, and back.
        const auto curves = [&] { return page.compareChart()->chart().series; };
        QVERIFY(curves().size() >= 6);
        for (const auto &s : curves())
            QVERIFY(!s.step);
        page.stepModeBox()->setChecked(true);
        for (const auto &s : curves())
            QVERIFY(s.step);
        // Re-derived compare under p50: runs with rows say so, the aggregates-only run keeps stored values;
        // step mode survives the rebuild.
        DeriveControls *dc = page.compareDeriveControls();
        dc->rederiveBox()->setChecked(true);
        dc->percentileCombo()->setCurrentIndex(dc->percentileCombo()->findData(50));
        int derived = 0, stored = 0;
        for (const auto &s : curves()) {
            QVERIFY(s.step);
            derived += s.name.contains(u"(steady, re-derived p50"_qs);
            stored += s.name.contains(u", stored p50"_qs);
        }
        QCOMPARE(derived, 4);
        QCOMPARE(stored, 2);
        QVERIFY(page.compareChart()->chart().yLabel.contains(u"TPOT p50"_qs));
        // Re-derived TTFT p99 bar of run b / Chat at its operating point = p99 of the stored samples.
        auto detail = reader.runDetail(m_b.uuid);
        QVERIFY(detail);
        std::int64_t opId = -1;
        for (const PointRow &p : detail->points)
            if (p.scenarioIndex == 0 && p.pointIndex == op)
                opId = p.id;
        auto samples = reader.samples(opId, "ttft_ms");
        QVERIFY(samples && samples->size() >= 1000);
        QVERIFY(std::abs(page.phaseBarsChart()->chart().series[1].points[0].y - pct(*samples, 99)) < 1e-9);
        page.stepModeBox()->setChecked(false);
        for (const auto &s : curves())
            QVERIFY(!s.step);
    }

    void compareDeltasFollowVariant()
    {
        // Run b is 25 % faster than run a: more tokens/s, lower latencies.
        HistoryPage page(m_db);
        QVERIFY(page.compareRuns({QString::fromStdString(m_a.uuid), QString::fromStdString(m_b.uuid)}).ok());
        DeriveVariant v;
        v.rederive = true;
        v.percentile = 50;
        v.window = DeriveVariant::Window::Whole;
        v.gpus = DeriveVariant::Gpus::None;
        page.compareDeriveControls()->setVariant(v);
        QVERIFY(page.compareWidget()->deltasNote()->text().contains(u"re-derived p50"_qs));
        HistoryReader reader;
        QVERIFY(reader.open(m_db.toStdString()));
        // Expected values at the operating point of a scenario, computed here from the stored rows.
        auto expected = [&](const std::string &uuid, int scenario, const QString &metric) {
            auto data = ReportData::fromHistory(reader, uuid);
            auto detail = reader.runDetail(uuid);
            if (!data || !detail)
                return std::nan("");
            const int op = RunComparison::operatingPoint(data->run.scenarios[std::size_t(scenario)]);
            for (const PointRow &p : detail->points) {
                if (p.scenarioIndex != scenario || p.pointIndex != op)
                    continue;
                const std::string where = " FROM requests WHERE point_id = " + std::to_string(p.id) +
                                          " AND (flags & 1) = 0 AND error_class = 0";
                if (metric == u"output_tps")
                    return sqlDouble("SELECT sum(n_out)" + where) /
                           (sqlDouble("SELECT max(t_end_ns) - min(t_send_ns)" + where) / 1e9);
                if (metric == u"ttft_ms p50") {
                    auto samples = reader.samples(p.id, "ttft_ms");
                    return samples ? pct(*samples, 50) : std::nan("");
                }
            }
            return std::nan("");
        };
        auto rowOf = [](QTableWidget *t, const QString &scenarioPrefix, const QString &metric) {
            for (int r = 0; r < t->rowCount(); ++r)
                if (t->item(r, 1)->text().endsWith(scenarioPrefix) && t->item(r, 2)->text() == metric)
                    return r;
            return -1;
        };
        QTableWidget *t = page.comparisonTable();
        // Total (not per GPU): no per-GPU row; the throughput row is the whole-run value, re-derived.
        QCOMPARE(rowOf(t, u"/Chat"_qs, u"output_tps_per_gpu"_qs), -1);
        for (const QString &metric : {u"output_tps"_qs, u"ttft_ms p50"_qs}) {
            const int r = rowOf(t, u"/Chat"_qs, metric);
            QVERIFY2(r >= 0, qPrintable(metric));
            const double b = expected(m_a.uuid, 0, metric), c = expected(m_b.uuid, 0, metric);
            QCOMPARE(t->item(r, 3)->text(), ReportWriter::number(b, 2));
            QCOMPARE(t->item(r, 4)->text(), ReportWriter::number(c, 2));
            QCOMPARE(t->item(r, 5)->text(), ReportWriter::number((c - b) / b * 100.0, 1));
            // Faster candidate: throughput up and TTFT down are both "better".
            QCOMPARE(t->item(r, 6)->text(), u"better"_qs);
        }
        // Not the stored steady-state value the table showed before.
        auto a = ReportData::fromHistory(reader, m_a.uuid);
        QVERIFY(a);
        const int op = RunComparison::operatingPoint(a->run.scenarios[0]);
        const double storedTps = a->run.scenarios[0].points[std::size_t(op)].metrics.outputTps;
        QVERIFY(t->item(rowOf(t, u"/Chat"_qs, u"output_tps"_qs), 3)->text() !=
                ReportWriter::number(storedTps, 2));
        // Per decode GPU (the fixture has no disaggregation: all 8 GPUs): the row is named after the divisor.
        v.gpus = DeriveVariant::Gpus::Decode;
        page.compareDeriveControls()->setVariant(v);
        const int perDecode = rowOf(t, u"/Chat"_qs, u"output_tps_per_decode_gpu"_qs);
        QVERIFY(perDecode >= 0);
        QCOMPARE(t->item(perDecode, 3)->text(),
                 ReportWriter::number(expected(m_a.uuid, 0, u"output_tps"_qs) / 8, 2));
        // Swapped roles: the slower candidate is "worse" in both directions.
        QVERIFY(page.compareRuns({QString::fromStdString(m_b.uuid), QString::fromStdString(m_a.uuid)}).ok());
        for (const QString &metric : {u"output_tps"_qs, u"ttft_ms p50"_qs, u"output_tps_per_decode_gpu"_qs})
            QCOMPARE(t->item(rowOf(t, u"/Chat"_qs, metric), 6)->text(), u"worse"_qs);
        // Stored values again: the stored p90 columns.
        page.compareDeriveControls()->setVariant(DeriveVariant{});
        const int stored = rowOf(t, u"/Chat"_qs, u"ttft_ms p90"_qs);
        QVERIFY(stored >= 0);
        auto bData = ReportData::fromHistory(reader, m_b.uuid);
        QVERIFY(bData);
        const int bOp = RunComparison::operatingPoint(bData->run.scenarios[0]);
        QCOMPARE(t->item(stored, 3)->text(),
                 ReportWriter::number(
                     *bData->run.scenarios[0].points[std::size_t(bOp)].metricValue("ttft_ms", "p90"), 2));
    }

    // The page with a history service: arrival, quick successive selections, a variant changed while a run
    // is under way, the distribution metric, the timeline's scenario, a row refresh, compare and the PDF
    // report — every read on the service's worker (the GUI thread opens no connection to the file), only the
    // last of quick selections applied, and each view equal to the one the direct reads draw.
    void serviceReadsOffTheGuiThread()
    {
        const QString a = QString::fromStdString(m_a.uuid), b = QString::fromStdString(m_b.uuid),
                      plain = QString::fromStdString(m_plain.uuid);
        // Expected views from direct reads of a copy (its connections are not the ones counted).
        const QString copy = m_dir.filePath(u"copy.sqlite"_qs);
        QVERIFY(QFile::copy(m_db, copy));
        if (QFile::exists(m_db + u"-wal"_qs))
            QVERIFY(QFile::copy(m_db + u"-wal"_qs, copy + u"-wal"_qs));
        HistoryPage direct(copy);
        DeriveVariant p50;
        p50.rederive = true;
        p50.percentile = 50;

        SqliteOpenRecorder recorder(m_db);
        HistoryService service;
        HistoryPage page(m_db, &service);
        QSignalSpy shown(&page, &HistoryPage::runShown);
        QTRY_COMPARE(page.runsModel()->rowCount(), 3);
        QTRY_COMPARE(shown.count(), 1); // the newest run shown on arrival
        QCOMPARE(page.currentRun(), plain);

        // Three selections in a row: only the last reaches the views.
        shown.clear();
        QVERIFY(page.selectRun(b));
        QVERIFY(page.selectRun(plain));
        QVERIFY(page.selectRun(a));
        QTRY_COMPARE(shown.count(), 1);
        QTRY_COMPARE(service.pending(), 0);
        QTest::qWait(50);
        QCOMPARE(shown.count(), 1);
        QCOMPARE(shown.at(0).at(0).toString(), a);
        QCOMPARE(page.currentRun(), a);
        QVERIFY(direct.showRun(a));
        QCOMPARE(page.timelineView()->timeline().requests, direct.timelineView()->timeline().requests);
        QCOMPARE(page.timelineView()->timeline().outputTps, direct.timelineView()->timeline().outputTps);
        QCOMPARE(page.distributionChart()->chart().title, direct.distributionChart()->chart().title);
        QCOMPARE(page.curveChart()->chart().series.size(), 2);
        QCOMPARE(page.curveChart()->chart().series[0].positions(),
                 direct.curveChart()->chart().series[0].positions());

        // Another run asked for, and the variant changed before it arrived: that run under that variant.
        shown.clear();
        QVERIFY(page.selectRun(b));
        page.detailDeriveControls()->setVariant(p50);
        QTRY_COMPARE(shown.count(), 1);
        QTRY_COMPARE(service.pending(), 0);
        QCOMPARE(page.currentRun(), b);
        auto *proxy = qobject_cast<QSortFilterProxyModel *>(page.pointsView()->model());
        QVERIFY(proxy);
        QCOMPARE(proxy->sourceModel(), static_cast<QAbstractItemModel *>(page.derivedModel()));
        QVERIFY(direct.showRun(b));
        direct.detailDeriveControls()->setVariant(p50);
        QCOMPARE(page.derivedModel()->rowCount(), direct.derivedModel()->rowCount());
        for (int r = 0; r < page.derivedModel()->rowCount(); ++r) {
            QCOMPARE(page.derivedModel()->row(r).point.id, direct.derivedModel()->row(r).point.id);
            QCOMPARE(page.derivedModel()->row(r).values.ttftMs, direct.derivedModel()->row(r).values.ttftMs);
        }
        QCOMPARE(page.curveChart()->chart().title, direct.curveChart()->chart().title);

        // The distribution metric and the timeline's scenario.
        QComboBox *metric = nullptr;
        for (QComboBox *c : page.detailWidget()->findChildren<QComboBox *>())
            if (c->findText(u"tpot_ms"_qs) >= 0)
                metric = c;
        QVERIFY(metric);
        metric->setCurrentText(u"tpot_ms"_qs);
        QTRY_VERIFY(page.distributionChart()->chart().title.startsWith(u"tpot_ms"_qs));
        page.timelineView()->scenarioCombo()->setCurrentIndex(1);
        QTRY_COMPARE(service.pending(), 0);
        QTest::qWait(20);
        QVERIFY(direct.timelineView()->showScenario(1).ok());
        QCOMPARE(page.timelineView()->timeline().requests, direct.timelineView()->timeline().requests);
        QCOMPARE(page.timelineView()->telemetrySeriesCount(), direct.timelineView()->telemetrySeriesCount());

        // A row re-read after its tags were saved; then compare and the PDF report.
        emit page.detailWidget()->tagsSaved(b);
        QVERIFY(page.compareRuns({a, b}).ok());
        QTRY_COMPARE(page.compareWidget()->comparedRuns().size(), std::size_t(2));
        QVERIFY(direct.compareRuns({a, b}).ok());
        QTRY_COMPARE(page.comparisonTable()->rowCount(), direct.comparisonTable()->rowCount());
        QVERIFY(page.comparisonTable()->rowCount() > 0);
        const QString pdf = m_dir.filePath(u"service-report.pdf"_qs);
        QPushButton *report = nullptr;
        for (QPushButton *button : page.findChildren<QPushButton *>())
            if (button->text() == u"Report PDF…"_qs)
                report = button;
        QVERIFY(report);
        QTimer answer;
        QObject::connect(&answer, &QTimer::timeout, [&] {
            if (auto *d = qobject_cast<QFileDialog *>(QApplication::activeModalWidget())) {
                d->findChild<QLineEdit *>(u"fileNameEdit"_qs)->setText(pdf);
                QMetaObject::invokeMethod(d, "accept");
                answer.stop();
            }
        });
        answer.start(20);
        QTest::mouseClick(report, Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(QFileInfo(pdf).size() > 1000, 20000);
        QTRY_COMPARE(service.pending(), 0);

        // A page closed with a read under way is not touched.
        {
            HistoryPage gone(m_db, &service);
            gone.showRun(a);
        }
        QTRY_COMPARE(service.pending(), 0);
        QTest::qWait(50);

        QCOMPARE(recorder.guiOpens(), 0);
        QVERIFY2(recorder.otherOpens() >= 10, qPrintable(QString::number(recorder.otherOpens())));
    }

    // The "MLPerf Endpoints" tab is there for a run measured in MLPerf mode (its provenance "mlperf") and
    // gone for any other run; its charts are tst_mlperfcharts'.
    void mlperfTabOnlyForMlperfRuns()
    {
        const QString db = m_dir.filePath(u"mlperf.sqlite"_qs);
        StorageWriter writer;
        QVERIFY(writer.open(db.toStdString()).ok());
        const std::string id = "gpt-oss-20b/vllm/H200×1/Chat";
        const nlohmann::json plan = nlohmann::json::array({{{"concurrency", 1}, {"region", "ultra_low"}},
                                                           {{"concurrency", 8}, {"region", "low"}},
                                                           {{"concurrency", 32}, {"region", "medium"}},
                                                           {{"concurrency", 64}, {"region", "high"}}});
        const nlohmann::json mlperf = {
            {"mlperf",
             {{"preset", "mlperf-endpoints-1.0"},
              {"scenarios", nlohmann::json::array({{{"scenario", id}, {"plan", plan}}})}}}};
        const auto measured =
            TestFixture::storeRun(writer, "mlperf", {"Chat"}, {"vllm"}, 50, 21, {}, 4, mlperf);
        const auto plain = TestFixture::storeRun(writer, "plain", {"Chat"}, {"vllm"}, 50, 22);
        QVERIFY(writer.flush().ok());
        QVERIFY(writer.close().ok());
        HistoryPage page(db);
        page.resize(1200, 900);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        MlperfCurveView *view = page.detailWidget()->mlperfView();
        QTabWidget *tabs = page.detailWidget()->plotTabs();
        QVERIFY(page.showRun(QString::fromStdString(measured.uuid)));
        QTRY_VERIFY(tabs->indexOf(view) >= 0);
        QCOMPARE(view->scenarioCount(), 1);
        QVERIFY2(view->summaryText().contains(u"mlperf-endpoints-1.0"_qs), qPrintable(view->summaryText()));
        QVERIFY(page.showRun(QString::fromStdString(plain.uuid)));
        QTRY_VERIFY(tabs->indexOf(view) < 0);
    }

    // The Compare tab on two MLPerf runs (the second 30 % faster): the frontier table lists the area and the
    // round levels, every share 130 %; on two plain runs it is hidden.
    void compareTabMlperfFrontiers()
    {
        const QString db = m_dir.filePath(u"mlperf-compare.sqlite"_qs);
        StorageWriter writer;
        QVERIFY(writer.open(db.toStdString()).ok());
        const std::string id = "gpt-oss-20b/vllm/H200×1/Chat";
        const nlohmann::json mlperf = {
            {"mlperf",
             {{"preset", "mlperf-endpoints-1.0"},
              {"scenarios",
               nlohmann::json::array({{{"scenario", id}, {"plan", nlohmann::json::array()}}})}}}};
        const auto base = TestFixture::storeRun(writer, "mlperf", {"Chat"}, {"vllm"}, 50, 21, {}, 4, mlperf);
        const auto fast = TestFixture::storeRun(writer, "mlperf", {"Chat"}, {"vllm"}, 65, 21, {}, 4, mlperf);
        const auto plainA = TestFixture::storeRun(writer, "plain", {"Chat"}, {"vllm"}, 50, 22);
        const auto plainB = TestFixture::storeRun(writer, "plain", {"Chat"}, {"vllm"}, 50, 23);
        QVERIFY(writer.flush().ok());
        QVERIFY(writer.close().ok());
        HistoryPage page(db);
        HistoryCompareWidget *tab = page.compareWidget();
        QSignalSpy done(tab, &HistoryCompareWidget::compared);
        QVERIFY(
            page.compareRuns({QString::fromStdString(base.uuid), QString::fromStdString(fast.uuid)}).ok());
        QTRY_VERIFY(!done.isEmpty());
        QTableWidget *t = tab->mlperfTable();
        QVERIFY(!t->isHidden());
        QVERIFY(t->rowCount() >= 2);
        QVERIFY2(t->item(0, 2)->text().startsWith(u"Area over 0"_qs), qPrintable(t->item(0, 2)->text()));
        for (int r = 0; r < t->rowCount(); ++r)
            QVERIFY2(t->item(r, 5)->text() == u"130.0 %"_qs, qPrintable(t->item(r, 5)->text()));
        if (const QString dir = qEnvironmentVariable("THROUGHLINE_HISTORY_SHOT_DIR"); !dir.isEmpty()) {
            page.resize(1600, 1000);
            page.show();
            QVERIFY(QTest::qWaitForWindowExposed(&page));
            page.grab().save(dir + u"/history-compare-mlperf.png"_qs);
        }
        done.clear();
        QVERIFY(page.compareRuns({QString::fromStdString(plainA.uuid), QString::fromStdString(plainB.uuid)})
                    .ok());
        QTRY_VERIFY(!done.isEmpty());
        QCOMPARE(t->rowCount(), 0);
        QVERIFY(t->isHidden());
    }

    void screenshots()
    {
        const QString dir = qEnvironmentVariable("THROUGHLINE_HISTORY_SHOT_DIR");
        if (dir.isEmpty())
            QSKIP("set THROUGHLINE_HISTORY_SHOT_DIR to save the screenshots");
        HistoryPage page(m_db);
        page.resize(1600, 1200);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QVERIFY(page.showRun(QString::fromStdString(m_a.uuid)));
        auto *plotTabs = page.timelineView()->parentWidget();
        while (plotTabs && !qobject_cast<QTabWidget *>(plotTabs))
            plotTabs = plotTabs->parentWidget();
        QVERIFY(plotTabs);
        qobject_cast<QTabWidget *>(plotTabs)->setCurrentWidget(page.timelineView());
        page.detailDeriveControls()->rederiveBox()->setChecked(true);
        QTest::qWait(200);
        QVERIFY(page.grab().save(dir + u"/history-detail.png"_qs));
        QVERIFY(page.compareRuns({QString::fromStdString(m_a.uuid), QString::fromStdString(m_b.uuid),
                                  QString::fromStdString(m_plain.uuid)})
                    .ok());
        page.stepModeBox()->setChecked(true);
        page.compareDeriveControls()->rederiveBox()->setChecked(true); // deltas under the re-derived variant
        QTest::qWait(200);
        QVERIFY(page.grab().save(
            dir + u"/history-compare-rederived.png"_qs)); // docs/ shows real runs (screenshots.cpp)
    }
};

THROUGHLINE_GUI_TEST_MAIN(TstHistoryDetail)
#include "tst_historydetail.moc"
