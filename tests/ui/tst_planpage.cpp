// The Plan page with real widgets (offscreen) on a real history database: three stored runs written by the
// StorageWriter — 4 × H100 (four closed-loop points), GB200 disaggregated 24P + 8D next to 8 × GB200, and
// 4 × GB300 (a GPU without an on_demand price). The inputs are set through the widgets; the table's
// figures are checked against the hand calculation (±1 %), each row names and carries its stored point
// (the id the history database gave it), a GPU the price kind does not price is an error naming GPU and
// kind, a tier no point meets says so with the closest point, the chart has one series per deployment, and
// with the German catalogue the page is German. Prices: H100 on_demand default (Nebius) 2.95 $/GPU-h,
// GB200 on_demand default (Spheron) 4.54, GB300 tco_owning_hyperscaler 2.652.
#include "ui/guitestmain.h"

#include "core/storage/historyreader.h"
#include "core/storage/storagewriter.h"
#include "ui/history/chartview.h"
#include "ui/mainwindow.h"
#include "ui/pages/planpage.h"
#include "ui/report/reportwriter.h"
#include "ui/settings/translationloader.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHeaderView>
#include <QLineEdit>
#include <QListWidget>
#include <QProcess>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTranslator>
#include <QUuid>
#include <QtTest>

#include <cmath>

using namespace Throughline;

namespace {

struct PointSpec {
    int concurrency;
    double tps, ttftP90, tpotP90;
};

struct ScenarioSpec {
    std::string key, gpu;
    int gpus, prefill, decode;
    std::vector<PointSpec> points;
};

// One stored run whose points carry exactly these figures (results.json point shape).
std::string storeRun(StorageWriter &writer, const std::string &campaign,
                     const std::vector<ScenarioSpec> &specs)
{
    const std::string uuid = QUuid::createUuid().toString(QUuid::WithoutBraces).toStdString();
    RunStart start;
    start.uuid = uuid;
    start.campaignName = campaign;
    start.campaignJson = "{\"name\":\"" + campaign + "\"}";
    start.t0UnixNs = 1'790'000'000'000'000'000LL;
    int idx = 0;
    for (const ScenarioSpec &s : specs) {
        ScenarioInfo si;
        si.index = idx++;
        si.key = s.key;
        si.model = "model";
        si.backend = "backend";
        si.gpu = s.gpu;
        si.gpus = s.gpus;
        si.prefillGpus = s.prefill;
        si.decodeGpus = s.decode;
        si.phase = "Reasoning";
        si.isl = 1000;
        si.osl = 1000;
        start.scenarios.push_back(si);
    }
    writer.beginRun(start);
    for (std::size_t i = 0; i < specs.size(); ++i)
        for (std::size_t k = 0; k < specs[i].points.size(); ++k) {
            const PointSpec &p = specs[i].points[k];
            const nlohmann::json load{{"mode", "concurrency"}, {"concurrency", p.concurrency}};
            writer.beginPoint(uuid, int(i), int(k), {{"load", load}});
            FinishedPoint fp;
            fp.scenarioIndex = int(i);
            fp.pointIndex = int(k);
            fp.aggregates = {{"load", load},
                             {"validity", {{"valid", true}, {"flags", nlohmann::json::array()}}},
                             {"metrics",
                              {{"output_tps", p.tps},
                               {"ttft_ms", {{"p90", p.ttftP90}}},
                               {"tpot_ms", {{"p90", p.tpotP90}}}}}};
            writer.finishPoint(uuid, fp);
        }
    writer.finishRun(uuid, RunStatus::Completed);
    return uuid;
}

bool near(double actual, double expected)
{
    return std::fabs(actual - expected) <= 0.01 * std::fabs(expected);
}

// "$0.364" / "1,234.5" → 0.364 / 1234.5 (the first number of a cell).
double cellNumber(const QTableWidget *t, int row, int column)
{
    QString s = t->item(row, column)->text();
    s.remove(u'$').remove(u',');
    return s.section(u' ', 0, 0).toDouble();
}

} // namespace

class TstPlanPage : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString m_db;
    std::string m_h100, m_gb200, m_gb300;

    int rowOf(const QTableWidget *t, const QString &deploymentPart)
    {
        for (int r = 0; r < t->rowCount(); ++r)
            if (t->item(r, PlanPage::DeploymentColumn)->text().contains(deploymentPart))
                return r;
        return -1;
    }

    // The stored point id of (run, scenario index, concurrency) as the history database has it.
    qint64 storedPointId(const std::string &run, int concurrency, const std::string &scenarioKey)
    {
        HistoryReader reader;
        if (!reader.open(m_db.toStdString()).ok())
            return -1;
        auto detail = reader.runDetail(run);
        if (!detail)
            return -1;
        std::int64_t scenarioId = -1;
        for (const auto &s : detail->scenarios)
            if (s.key == scenarioKey)
                scenarioId = s.id;
        for (const auto &p : detail->points)
            if (p.scenarioId == scenarioId && p.aggregates["load"]["concurrency"] == concurrency)
                return p.id;
        return -1;
    }

    void setInputs(PlanPage &page, double demand, const QString &tier, double headroom, const QString &kind)
    {
        page.demandKindCombo()->setCurrentIndex(page.demandKindCombo()->findData(u"tps"_qs));
        page.demandValueBox()->setValue(demand);
        page.headroomBox()->setValue(headroom);
        page.tierEdit()->setFocus();
        page.tierEdit()->selectAll();
        QTest::keyClicks(page.tierEdit(), tier);
        QTest::keyClick(page.tierEdit(), Qt::Key_Return); // editingFinished re-plans
        page.priceKindCombo()->setCurrentIndex(page.priceKindCombo()->findData(kind));
    }

private slots:
    void initTestCase()
    {
        m_db = m_dir.filePath(u"history.sqlite"_qs);
        StorageWriter writer;
        QVERIFY(writer.open(m_db.toStdString()).ok());
        m_h100 = storeRun(
            writer, "h100",
            {{"llama/vLLM/H100×4/Reasoning",
              "H100",
              4,
              0,
              0,
              {{8, 2000, 300, 10}, {32, 6000, 800, 20}, {64, 9000, 1500, 40}, {128, 11000, 3500, 80}}}});
        m_gb200 = storeRun(writer, "gb200",
                           {{"r1/Dynamo/GB200×32/Reasoning", "GB200", 32, 24, 8, {{1024, 64000, 1800, 30}}},
                            {"r1/TRT-LLM/GB200×8/Reasoning", "GB200", 8, 0, 0, {{256, 12000, 1900, 45}}}});
        m_gb300 = storeRun(writer, "gb300",
                           {{"r1/TRT-LLM/GB300×4/Reasoning", "GB300", 4, 0, 0, {{64, 9000, 1500, 40}}}});
        QVERIFY(writer.flush().ok());
        QVERIFY(writer.close().ok());
    }

    void ranksDeploymentsWithTheStoredPointBehindEveryNumber()
    {
        PlanPage page(m_db);
        page.resize(1300, 800);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QCOMPARE(page.runList()->count(), 3);
        QVERIFY(page.message().contains(u"Tick"_qs)); // nothing ticked yet: says what to do
        page.setCheckedRuns({QString::fromStdString(m_h100), QString::fromStdString(m_gb200)});
        setInputs(page, 50000, u"ttft_p90<=2000,tps_user>=20"_qs, 10, u"on_demand"_qs);
        QVERIFY2(!page.messageIsError(), qPrintable(page.message()));
        QTableWidget *t = page.table();
        QCOMPARE(t->rowCount(), 3);

        // #1 4 × H100 at C=64 (9,000 tok/s; C=128 fails TTFT 3,500 > 2,000): 50,000 × 1.1 = 55,000 ÷ 9,000 →
        // 7 replicas = 28 GPUs; 9,000 ÷ 4 = 2,250 tok/s/GPU; 64 ÷ 4 = 16 users/GPU;
        // 4 × 2.95 = 11.8 $/h ÷ 32.4 Mtok/h = 0.3642 $/1M; at demand 28 × 2.95 = 82.6 $/h ÷ 180 Mtok/h =
        // 0.4589; 4 × 1.37 kW ÷ 32.4 Mtok/h = 0.1691 kWh/1M; 2,250 × 3,600 = 8,100,000 tokens/GPU-hour.
        QCOMPARE(t->item(0, PlanPage::RankColumn)->text(), u"1"_qs);
        QVERIFY(t->item(0, PlanPage::DeploymentColumn)->text().contains(u"4 × H100"_qs));
        QVERIFY(near(cellNumber(t, 0, PlanPage::TpsPerGpuColumn), 2250));
        QVERIFY(near(cellNumber(t, 0, PlanPage::UsersPerGpuColumn), 16));
        QCOMPARE(cellNumber(t, 0, PlanPage::ReplicasColumn), 7.0);
        QCOMPARE(cellNumber(t, 0, PlanPage::GpusColumn), 28.0);
        QVERIFY(near(cellNumber(t, 0, PlanPage::UsdPointColumn), 0.364198));
        QVERIFY(near(cellNumber(t, 0, PlanPage::UsdDemandColumn), 0.458889));
        QVERIFY(near(cellNumber(t, 0, PlanPage::KwhColumn), 0.169136));
        QVERIFY(near(cellNumber(t, 0, PlanPage::TokensPerGpuHourColumn), 8100000));
        QVERIFY(t->item(0, PlanPage::PriceColumn)->text().contains(u"on_demand · Nebius"_qs));
        QVERIFY(t->item(0, PlanPage::BindingColumn)->text().contains(u"ttft_p90 3,500 ms > 2,000 ms"_qs));
        // The stored point: the id the database gave C=64 of the H100 run, on every cell and in the text.
        const qint64 id64 = storedPointId(m_h100, 64, "llama/vLLM/H100×4/Reasoning");
        QVERIFY(id64 > 0);
        for (int c = 0; c < PlanPage::ColumnCount; ++c) {
            QCOMPARE(t->item(0, c)->data(PlanPage::PointIdRole).toLongLong(), id64);
            QCOMPARE(t->item(0, c)->data(PlanPage::RunRole).toString(), QString::fromStdString(m_h100));
        }
        QVERIFY(t->item(0, PlanPage::PointColumn)->text().contains(u"stored point %1"_qs.arg(id64)));
        QCOMPARE(t->horizontalHeaderItem(PlanPage::PointColumn)->text(), u"Stored point"_qs);
        // The numbers that decide come before the long stored-point text: on the page of a 1440-px window
        // (sidebar and runs list beside it; the page here is 1300 px) the columns up to $ per 1M at demand
        // are in view without scrolling.
        QTest::qWait(50); // layout after the fill
        const int usdRight =
            t->columnViewportPosition(PlanPage::UsdDemandColumn) + t->columnWidth(PlanPage::UsdDemandColumn);
        QVERIFY2(usdRight <= t->viewport()->width(),
                 qPrintable(u"$ at demand ends at %1 px of %2"_qs.arg(usdRight).arg(t->viewport()->width())));
        if (qEnvironmentVariableIsSet("THROUGHLINE_SCREENSHOT_DIR")) // docs/plan-page.png
            page.grab().save(qEnvironmentVariable("THROUGHLINE_SCREENSHOT_DIR") + u"/plan-page.png"_qs);

        // #2 GB200 24P + 8D: 55,000 ÷ 64,000 → 1 replica = 32 GPUs (24 prefill + 8 decode);
        // 32 × 4.54 = 145.28 $/h ÷ 230.4 Mtok/h = 0.6306 $/1M.
        QVERIFY(t->item(1, PlanPage::DeploymentColumn)->text().contains(u"24P + 8D × GB200"_qs));
        QCOMPARE(cellNumber(t, 1, PlanPage::GpusColumn), 32.0);
        QVERIFY(t->item(1, PlanPage::GpusColumn)->text().contains(u"24 prefill + 8 decode"_qs));
        QVERIFY(near(cellNumber(t, 1, PlanPage::UsdPointColumn), 0.630556));
        // #3 8 × GB200: 55,000 ÷ 12,000 = 4.58 → 5 replicas = 40 GPUs; 8 × 4.54 = 36.32 ÷ 43.2 = 0.8407 $/1M.
        QVERIFY(t->item(2, PlanPage::DeploymentColumn)->text().contains(u"8 × GB200"_qs));
        QCOMPARE(cellNumber(t, 2, PlanPage::ReplicasColumn), 5.0);
        QCOMPARE(cellNumber(t, 2, PlanPage::GpusColumn), 40.0);
        QVERIFY(near(cellNumber(t, 2, PlanPage::UsdPointColumn), 0.840741));

        // The chart: one series per deployment; at × 1 the H100 series is at its $ per 1M.
        const Chart chart = page.costChart()->chart();
        QCOMPARE(chart.series.size(), 3);
        QVERIFY(!page.costChart()->showsEmptyText());
        bool atOne = false;
        for (const ChartSeries &series : chart.series)
            for (const ChartPoint &p : series.points)
                atOne = atOne || (series.name.contains(u"4 × H100"_qs) && p.x == 1.0 && near(p.y, 0.364198));
        QVERIFY(atOne);

        // Double-click: the row's stored point is handed on (the main window opens it in History).
        QSignalSpy activated(&page, &PlanPage::pointActivated);
        const QRect cell = t->visualItemRect(t->item(0, PlanPage::DeploymentColumn));
        QVERIFY(t->viewport()->rect().contains(cell.center()));
        QTest::mouseClick(t->viewport(), Qt::LeftButton, {}, cell.center());
        QTest::mouseDClick(t->viewport(), Qt::LeftButton, {}, cell.center());
        QCOMPARE(activated.count(), 1);
        QCOMPARE(activated.at(0).at(0).toString(), QString::fromStdString(m_h100));
        QCOMPARE(activated.at(0).at(1).toLongLong(), id64);

        // A provider picked by hand: Lambda 3.99 $/h → 4 × 3.99 = 15.96 ÷ 32.4 = 0.4926 $/1M.
        page.setCheckedRuns({QString::fromStdString(m_h100)});
        page.providerCombo()->setCurrentIndex(page.providerCombo()->findData(u"Lambda"_qs));
        QVERIFY(near(cellNumber(page.table(), 0, PlanPage::UsdPointColumn), 0.492593));
    }

    void missingPriceNamesGpuAndKind()
    {
        PlanPage page(m_db);
        page.show();
        page.setCheckedRuns({QString::fromStdString(m_gb300)});
        setInputs(page, 50000, u"ttft_p90<=2000"_qs, 0, u"on_demand"_qs);
        QVERIFY(page.messageIsError());
        QVERIFY2(page.message().contains(u"GB300"_qs) && page.message().contains(u"on_demand"_qs),
                 qPrintable(page.message()));
        QCOMPARE(page.table()->rowCount(), 0);
        // The kind that prices it: 4 × 2.652 = 10.608 $/h ÷ 32.4 Mtok/h = 0.3274 $/1M.
        page.priceKindCombo()->setCurrentIndex(page.priceKindCombo()->findData(u"tco_owning_hyperscaler"_qs));
        QVERIFY2(!page.messageIsError(), qPrintable(page.message()));
        QVERIFY(near(cellNumber(page.table(), 0, PlanPage::UsdPointColumn), 0.327407));
    }

    void tierNoPointMeets()
    {
        PlanPage page(m_db);
        page.show();
        page.setCheckedRuns({QString::fromStdString(m_h100), QString::fromStdString(m_gb200)});
        setInputs(page, 50000, u"ttft_p90<=200"_qs, 0, u"rental_3yr"_qs);
        QVERIFY(page.message().startsWith(u"no deployment meets this tier (ttft_p90<=200)"_qs));
        QVERIFY2(page.message().contains(
                     u"the closest is model · backend · Reasoning (4 × H100) at concurrency 8"_qs),
                 qPrintable(page.message()));
        QCOMPARE(page.table()->rowCount(), 3);
        QCOMPARE(page.table()->item(0, PlanPage::RankColumn)->text(), u"does not meet"_qs);
        // A malformed tier names the field.
        setInputs(page, 50000, u"ttft_p90<=2000,tps_usr>=20"_qs, 0, u"rental_3yr"_qs);
        QVERIFY(page.messageIsError());
        QVERIFY2(page.message().contains(u"tps_usr"_qs), qPrintable(page.message()));
    }

    // The report's "Capacity and cost" section: the plan the page shows, through ReportWriter.
    void reportSection()
    {
        PlanPage page(m_db);
        page.setCheckedRuns({QString::fromStdString(m_h100), QString::fromStdString(m_gb200)});
        setInputs(page, 50000, u"ttft_p90<=2000,tps_user>=20"_qs, 10, u"on_demand"_qs);
        QVERIFY(page.lastPlan());
        HistoryReader reader;
        QVERIFY(reader.open(m_db.toStdString()).ok());
        auto data = ReportData::fromHistory(reader, m_h100);
        QVERIFY(data.ok());
        auto capacity = CapacityReport::compute(page.curves(), page.options().value(),
                                                Capacity::PriceTable::builtIn().value(),
                                                Capacity::PowerTable::builtIn().value());
        QVERIFY(capacity.ok());
        data->capacity = capacity.value();
        const QString pdf = m_dir.filePath(u"plan.pdf"_qs);
        QVERIFY(ReportWriter::write(*data, pdf).ok());
        if (qEnvironmentVariableIsSet("THROUGHLINE_REPORT_KEEP"))
            QFile::copy(pdf, qEnvironmentVariable("THROUGHLINE_REPORT_KEEP") + u"/plan.pdf"_qs);
        QProcess p;
        // -raw keeps the content stream's order, where each table cell's lines follow one another; the
        // default reading order may put a neighbouring cell's number between a wrapped cell's lines.
        p.start(u"pdftotext"_qs, {u"-raw"_qs, pdf, u"-"_qs});
        QVERIFY(p.waitForFinished(30000) && p.exitCode() == 0);
        // Table cells wrap: compare with the line breaks as spaces.
        const QString text = QString::fromUtf8(p.readAllStandardOutput()).simplified();
        QVERIFY(text.count(u"Capacity and cost"_qs) >= 2); // contents line and heading
        const qint64 id64 = storedPointId(m_h100, 64, "llama/vLLM/H100×4/Reasoning");
        for (const QString &expected :
             {u"$0.364"_qs, u"$0.459"_qs, u"$0.631"_qs, u"$0.841"_qs, u"24P + 8D"_qs,
              u"stored point %1"_qs.arg(id64), u"on_demand"_qs, u"Nebius"_qs, u"Spheron"_qs,
              u"ttft_p90 3,500 ms > 2,000 ms"_qs, u"$ per 1M output tokens vs SLO tightness"_qs})
            QVERIFY2(text.contains(expected), qPrintable(expected));
    }

    // The planner's own sentences (core/capacity writes them in English for the CLI) are German on the German
    // page and in the German report: a met tier (checks, binding constraint), a tier no point meets ("no
    // deployment meets …; the closest is …") and a missing price. None of the English forms is left.
    void germanPlannerTexts()
    {
        QVERIFY(TranslationLoader::install(QCoreApplication::instance(), u"de"_qs));
        const QStringList english = {u"no deployment meets"_qs,
                                     u"the closest is"_qs,
                                     u"at the next measured point"_qs,
                                     u"tok/s/user"_qs,
                                     u"output tok/s"_qs,
                                     u" of run "_qs,
                                     u"price for GPU"_qs,
                                     u"not reported by this point"_qs};
        auto noEnglish = [&](const QString &text) {
            for (const QString &e : english)
                if (text.contains(e))
                    return false;
            return true;
        };
        PlanPage page(m_db);
        page.show();
        page.setCheckedRuns({QString::fromStdString(m_h100), QString::fromStdString(m_gb200)});
        setInputs(page, 50000, u"ttft_p90<=2000,tps_user>=20"_qs, 10, u"on_demand"_qs);
        QVERIFY2(!page.messageIsError(), qPrintable(page.message()));
        // Met: 4 × H100 at C=64 is bound by C=128: TTFT p90 3,500 ms > 2,000 ms and 12.5 tok/s per user < 20.
        const QString binding = page.table()->item(0, PlanPage::BindingColumn)->text();
        QVERIFY2(binding.startsWith(u"ttft_p90 3,500 ms > 2,000 ms; tps_user 12.5 tok/s/Nutzer < 20.0 "
                                    u"tok/s/Nutzer am nächsten gemessenen Punkt "
                                    "(Nebenläufigkeit 128 von Lauf "_qs),
                 qPrintable(binding));
        const QString checks = page.table()->item(0, PlanPage::TierColumn)->text();
        QVERIFY2(checks.contains(u"ttft_p90 1,500 ms <= 2,000 ms"_qs) && checks.contains(u"tok/s/Nutzer"_qs),
                 qPrintable(checks));
        QString shown;
        for (int r = 0; r < page.table()->rowCount(); ++r)
            for (int c = 0; c < PlanPage::ColumnCount; ++c)
                shown += page.table()->item(r, c)->text() + u'\n';
        QVERIFY2(noEnglish(shown + page.basisText()), qPrintable(shown + page.basisText()));
        QVERIFY2(page.basisText().contains(u"50,000 Ausgabe-tok/s"_qs), qPrintable(page.basisText()));

        auto reportText = [&](const QString &name) {
            HistoryReader reader;
            if (!reader.open(m_db.toStdString()).ok())
                return QString();
            auto data = ReportData::fromHistory(reader, m_h100);
            auto capacity = CapacityReport::compute(page.curves(), page.options().value(),
                                                    Capacity::PriceTable::builtIn().value(),
                                                    Capacity::PowerTable::builtIn().value());
            if (!data.ok() || !capacity.ok())
                return QString();
            data->capacity = capacity.value();
            const QString pdf = m_dir.filePath(name);
            if (!ReportWriter::write(*data, pdf).ok())
                return QString();
            QProcess p;
            p.start(u"pdftotext"_qs, {pdf, u"-"_qs});
            p.waitForFinished(30000);
            return QString::fromUtf8(p.readAllStandardOutput()).simplified();
        };
        const QString metReport = reportText(u"plan-de-met.pdf"_qs);
        QVERIFY(metReport.contains(u"Kapazität und Kosten"_qs));
        // Table cells wrap and pdftotext may interleave columns: the binding cell's words, each on its own.
        for (const QString &word : {u"nächsten"_qs, u"gemessenen"_qs, u"Nutzer"_qs})
            QVERIFY2(metReport.contains(word), qPrintable(word));
        QVERIFY(noEnglish(metReport));

        // Missed: no point has TTFT p90 ≤ 200 ms; the closest is the H100 run at C=8 (300 ms).
        setInputs(page, 50000, u"ttft_p90<=200"_qs, 0, u"rental_3yr"_qs);
        QVERIFY2(
            page.message().startsWith(u"kein Deployment erfüllt diese Stufe (ttft_p90<=200); am nächsten "
                                      "kommt model · backend · Reasoning (4 × H100) bei Nebenläufigkeit 8 "
                                      "von Lauf "_qs),
            qPrintable(page.message()));
        QVERIFY2(page.message().contains(u": ttft_p90 300 ms > 200 ms"_qs), qPrintable(page.message()));
        QVERIFY(noEnglish(page.message()));
        const QString missedReport = reportText(u"plan-de-missed.pdf"_qs);
        QVERIFY2(missedReport.contains(
                     u"kein Deployment erfüllt diese Stufe (ttft_p90<=200); am nächsten kommt"_qs),
                 qPrintable(missedReport));
        QVERIFY(noEnglish(missedReport));

        // Missing price: GB300 has no on_demand price.
        page.setCheckedRuns({QString::fromStdString(m_gb300)});
        setInputs(page, 50000, u"ttft_p90<=2000"_qs, 0, u"on_demand"_qs);
        QVERIFY(page.messageIsError());
        QVERIFY2(page.message().startsWith(u"Planung nicht möglich: kein on_demand-Preis für GPU GB300"_qs),
                 qPrintable(page.message()));
        QVERIFY(noEnglish(page.message()));
        for (QTranslator *t : QCoreApplication::instance()->findChildren<QTranslator *>()) {
            QCoreApplication::removeTranslator(t);
            delete t;
        }
    }

    void mainWindowNavigatesAndGerman()
    {
        QVERIFY(TranslationLoader::install(QCoreApplication::instance(), u"de"_qs));
        {
            MainWindow w(MainWindow::Options{m_db, {}, false});
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            w.activateWindow();
            QTest::keyClick(&w, Qt::Key_5, Qt::ControlModifier);
            QCOMPARE(w.currentPage(), MainWindow::PlanPage);
            QVERIFY(w.planPage()->isVisible());
            QCOMPARE(w.planPage()->runList()->count(), 3);
            const QString header =
                w.planPage()->table()->horizontalHeaderItem(PlanPage::BindingColumn)->text();
            QCOMPARE(header, u"Bindende Grenze"_qs);
            auto *nav = w.findChild<QListWidget *>(u"navigation"_qs);
            QCOMPARE(nav->item(MainWindow::PlanPage)->text(), u"Planung"_qs);
            PlanPage alone(m_db); // nothing ticked: says what to do, in German
            QVERIFY2(alone.message().startsWith(u"Kreuzen Sie links"_qs), qPrintable(alone.message()));
        }
        for (QTranslator *t : QCoreApplication::instance()->findChildren<QTranslator *>()) {
            QCoreApplication::removeTranslator(t);
            delete t;
        }
    }
};

THROUGHLINE_GUI_TEST_MAIN(TstPlanPage)
#include "tst_planpage.moc"
