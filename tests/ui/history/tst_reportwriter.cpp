// The PDF report from a stored run: text, fonts, images and page size checked with poppler-utils.
#include "ui/guitestmain.h"
#include "historyfixture.h"

#include "core/storage/historyreader.h"
#include "ui/report/reportdata.h"
#include "ui/report/reportwriter.h"

#include <QProcess>
#include <QUuid>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

using namespace Throughline;

class TstReportWriter : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    std::string m_db;
    TestFixture::StoredRun m_run;

    static QString tool(const QString &name, const QStringList &args)
    {
        QProcess p;
        p.start(name, args);
        if (!p.waitForFinished(30000) || p.exitCode() != 0)
            return {};
        return QString::fromUtf8(p.readAllStandardOutput());
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_db = m_dir.filePath(u"history.sqlite"_qs).toStdString();
        StorageWriter writer;
        QVERIFY(writer.open(m_db).ok());
        m_run = TestFixture::storeRun(writer, "demo-like", {"Chat", "Reasoning"}, {"vllm", "sglang"}, 50, 7);
        QVERIFY(writer.flush().ok());
        QVERIFY(writer.close().ok());
        if (QStandardPaths::findExecutable(u"pdftotext"_qs).isEmpty())
            QSKIP("poppler-utils not installed");
    }

    void report_data()
    {
        QTest::addColumn<QString>("paper");
        QTest::addColumn<double>("widthPt");
        QTest::newRow("a4") << u"a4"_qs << 595.0;
        QTest::newRow("letter") << u"letter"_qs << 612.0;
    }
    void report()
    {
        QFETCH(QString, paper);
        QFETCH(double, widthPt);
        HistoryReader reader;
        QVERIFY(reader.open(m_db).ok());
        auto data = ReportData::fromHistory(reader, m_run.uuid);
        QVERIFY2(data.ok(), data.ok() ? "" : data.error().message.c_str());
        QCOMPARE(data->run.scenarios.size(), m_run.scenarioIds.size());
        const QString pdf = m_dir.filePath(u"report-"_qs + paper + u".pdf"_qs);
        ReportWriter::Options options;
        options.paper = *ReportWriter::parsePaper(paper);
        const Status st = ReportWriter::write(*data, pdf, options);
        QVERIFY2(st.ok(), st.ok() ? "" : st.error().message.c_str());
        if (qEnvironmentVariableIsSet("THROUGHLINE_REPORT_KEEP"))
            QFile::copy(pdf, qEnvironmentVariable("THROUGHLINE_REPORT_KEEP") + u"/report-"_qs + paper +
                                 u".pdf"_qs);

        // Every scenario id and every verdict, as stored, appear in the text.
        // NFKC folds the typographic ligatures (ﬁ) that pdftotext reports as such.
        const QString text =
            tool(u"pdftotext"_qs, {u"-layout"_qs, pdf, u"-"_qs}).normalized(QString::NormalizationForm_KC);
        QVERIFY(!text.isEmpty());
        auto detail = reader.runDetail(m_run.uuid);
        QVERIFY(detail.ok());
        QSet<QString> verdicts;
        for (const ScenarioRow &sc : detail->scenarios) {
            QVERIFY2(text.contains(QString::fromStdString(sc.key)), sc.key.c_str());
            QVERIFY(!sc.verdict.empty());
            verdicts.insert(QString::fromStdString(sc.verdict));
            QVERIFY(text.contains(QString::fromStdString(sc.key) + u" — "_qs +
                                  QString::fromStdString(sc.verdict)));
        }
        QVERIFY(verdicts.contains(u"pass"_qs) && verdicts.contains(u"fail"_qs));
        // Three sampled table values equal to the database's indexed columns.
        const int n = int(detail->points.size());
        QVERIFY(n >= 8);
        for (int i : {0, n / 2, n - 1}) {
            const PointRow &p = detail->points[i];
            const QString tps = ReportWriter::number(p.outputTpsPerGpu, 1);
            const QString ttft = ReportWriter::number(p.ttftMsP90, 1);
            QVERIFY2(
                text.contains(QRegularExpression(u"\\b"_qs + QRegularExpression::escape(tps) + u"\\s+"_qs +
                                                 QRegularExpression::escape(ttft) + u"\\b"_qs)),
                qPrintable(tps + u" "_qs + ttft));
        }
        QVERIFY(text.contains(u"Page 1 of"_qs));
        QVERIFY(text.contains(u"Appendix A: metric definitions"_qs));
        QVERIFY(text.contains(u"output_tps_per_gpu"_qs));
        QVERIFY(text.contains(u"Simulated endpoint"_qs));

        // Fonts: every font embedded, DejaVu among them.
        const QString fonts = tool(u"pdffonts"_qs, {pdf});
        QVERIFY(fonts.contains(u"DejaVu"_qs));
        const QStringList fontLines = fonts.split(u'\n', Qt::SkipEmptyParts).mid(2);
        QVERIFY(!fontLines.isEmpty());
        for (const QString &l : fontLines) {
            const QStringList cols = l.split(QRegularExpression(u"\\s+"_qs), Qt::SkipEmptyParts);
            QVERIFY2(cols.size() >= 5 && cols.at(cols.size() - 5) == u"yes"_qs, qPrintable(l)); // emb column
        }
        // No raster images anywhere (plots are vector).
        const QString images = tool(u"pdfimages"_qs, {u"-list"_qs, pdf});
        QCOMPARE(images.split(u'\n', Qt::SkipEmptyParts).size(), 2); // header lines only
        // Page size.
        const QString info = tool(u"pdfinfo"_qs, {pdf});
        QRegularExpressionMatch m = QRegularExpression(u"Page size:\\s+([0-9.]+) x"_qs).match(info);
        QVERIFY(m.hasMatch());
        QVERIFY(std::abs(m.captured(1).toDouble() - widthPt) < 2);
        QRegularExpressionMatch pages = QRegularExpression(u"Pages:\\s+(\\d+)"_qs).match(info);
        QVERIFY(pages.captured(1).toInt() >= 5); // title, summary, 2 phases, appendix
        QVERIFY(text.contains(u"of %1"_qs.arg(pages.captured(1))));
    }

    // Per-point server telemetry and the cold-start facts (issue 9): stored as a run records them (point
    // aggregates' "telemetry", scenario config "cold_start"), read back from the database and found in the
    // PDF's text with the report's number format.
    void telemetryAndColdStart()
    {
        const std::string db = m_dir.filePath(u"telemetry.sqlite"_qs).toStdString();
        const std::string uuid = QUuid::createUuid().toString(QUuid::WithoutBraces).toStdString();
        {
            StorageWriter writer;
            QVERIFY(writer.open(db).ok());
            RunStart start;
            start.uuid = uuid;
            start.campaignName = "telemetry";
            start.campaignJson = "{}";
            start.t0UnixNs = 1'790'000'000'000'000'000LL;
            ScenarioInfo si;
            si.model = "gpt-oss-20b";
            si.backend = "vllm";
            si.gpu = "H200";
            si.phase = "Chat";
            si.isl = si.osl = 128;
            si.key = "gpt-oss-20b/vllm/H200×1/Chat";
            si.config = {{"id", si.key}};
            start.scenarios.push_back(si);
            writer.beginRun(start);
            std::mt19937 rng(3);
            const int conc[] = {4, 16, 64};
            for (int k = 0; k < 3; ++k) {
                PointResult p = TestFixture::syntheticPoint(conc[k], 40, rng);
                p.telemetry = {{"scrapes", 60.0 + k},
                               {"scrape_failures", double(k)},
                               {"kv_cache_usage_peak", 0.1234 + 0.3 * k},
                               {"waiting_mean", 0.5 + 7.25 * k},
                               {"waiting_peak", 2.0 + 10 * k},
                               {"stalled_requests", k == 2 ? 3.0 : 0.0}};
                if (k > 0) { // DCGM power scraped from the second point on
                    p.telemetry["gpu_power_w_mean"] = 612.4 + k;
                    p.telemetry["energy_per_output_token_j"] = 0.8765 / k;
                }
                writer.beginPoint(uuid, 0, k,
                                  {{"load", {{"mode", "concurrency"}, {"concurrency", conc[k]}}}});
                FinishedPoint fp;
                fp.scenarioIndex = 0;
                fp.pointIndex = k;
                fp.aggregates = p.toJson();
                writer.finishPoint(uuid, fp);
            }
            writer.setScenarioVerdict(uuid, 0, {{"status", "no_target"}});
            writer.setScenarioColdStart(uuid, 0,
                                        {{"since", "run_start"},
                                         {"time_to_ready_s", 12.3456},
                                         {"health_ok_s", 12.1},
                                         {"models_ok_s", 12.3456},
                                         {"polls", 14},
                                         {"poll_interval_s", 1.0},
                                         {"first_request_ok", true},
                                         {"first_request_ttft_ms", 345.678},
                                         {"first_request_e2e_ms", 2345.61}});
            writer.finishRun(uuid, RunStatus::Completed);
            QVERIFY(writer.flush().ok());
            QVERIFY(writer.close().ok());
        }
        HistoryReader reader;
        QVERIFY(reader.open(db).ok());
        auto data = ReportData::fromHistory(reader, uuid);
        QVERIFY2(data.ok(), data.ok() ? "" : data.error().message.c_str());
        const QString pdf = m_dir.filePath(u"telemetry.pdf"_qs);
        QVERIFY(ReportWriter::write(*data, pdf).ok());
        const QString text =
            tool(u"pdftotext"_qs, {u"-layout"_qs, pdf, u"-"_qs}).normalized(QString::NormalizationForm_KC);
        QVERIFY(text.contains(u"Server telemetry per point"_qs));

        // Expected cells from the database (not from the values written above).
        auto detail = reader.runDetail(uuid);
        QVERIFY(detail.ok());
        QCOMPARE(detail->points.size(), std::size_t(3));
        for (const PointRow &p : detail->points) {
            const nlohmann::json t = p.aggregates.at("telemetry");
            auto num = [&t](const char *k, double f, int dec) {
                return t.contains(k) ? ReportWriter::number(t[k].get<double>() * f, dec) : u"n/a"_qs;
            };
            const QString row = num("kv_cache_usage_peak", 100, 1) + u"\\s+"_qs + num("waiting_mean", 1, 2) +
                                u"\\s+"_qs + num("waiting_peak", 1, 0) + u"\\s+"_qs +
                                num("scrape_failures", 1, 0) + u"/"_qs + num("scrapes", 1, 0) + u"\\s+"_qs +
                                num("stalled_requests", 1, 0) + u"\\s+"_qs + num("gpu_power_w_mean", 1, 0) +
                                u"\\s+"_qs + num("energy_per_output_token_j", 1, 3);
            QVERIFY2(text.contains(QRegularExpression(row)), qPrintable(row));
        }
        QCOMPARE(detail->scenarios.size(), std::size_t(1));
        const nlohmann::json c = detail->scenarios[0].config.at("cold_start");
        QVERIFY(text.contains(u"Cold start"_qs));
        for (const auto &[label, value] : std::vector<std::pair<QString, QString>>{
                 {u"Time to ready \\(s\\)"_qs, ReportWriter::number(c["time_to_ready_s"].get<double>(), 2)},
                 {u"First request TTFT \\(ms\\)"_qs,
                  ReportWriter::number(c["first_request_ttft_ms"].get<double>(), 1)},
                 {u"First request E2E \\(ms\\)"_qs,
                  ReportWriter::number(c["first_request_e2e_ms"].get<double>(), 1)},
                 {u"Polls \\(/health, /v1/models\\)"_qs,
                  QString::number(c["polls"].get<int>()) + u" every"_qs}})
            QVERIFY2(
                text.contains(QRegularExpression(label + u"\\s+"_qs + QRegularExpression::escape(value))),
                qPrintable(label + u" "_qs + value));
        QVERIFY(text.contains(u"12.35"_qs)); // 12.3456 s as the report rounds it
    }

    void fromResultsJsonAndBadPaper()
    {
        QVERIFY(!ReportWriter::parsePaper(u"a3"_qs).ok());
        auto missing = ReportData::fromResultsJson(m_dir.filePath(u"nope.json"_qs).toStdString());
        QVERIFY(!missing.ok());
        // A results.json written from the stored run gives the same scenarios.
        HistoryReader reader;
        QVERIFY(reader.open(m_db).ok());
        auto data = ReportData::fromHistory(reader, m_run.uuid);
        QVERIFY(data.ok());
        const std::string path = m_dir.filePath(u"results.json"_qs).toStdString();
        QVERIFY(writeResultsJson(data->run, path).ok());
        auto back = ReportData::fromResultsJson(path);
        QVERIFY2(back.ok(), back.ok() ? "" : back.error().message.c_str());
        QCOMPARE(back->run.scenarios.size(), data->run.scenarios.size());
        const QString pdf = m_dir.filePath(u"fromjson.pdf"_qs);
        QVERIFY(ReportWriter::write(*back, pdf).ok());
        QVERIFY(tool(u"pdftotext"_qs, {pdf, u"-"_qs})
                    .contains(QString::fromStdString(m_run.scenarioIds.front())));
    }
};

THROUGHLINE_GUI_TEST_MAIN(TstReportWriter)
#include "tst_reportwriter.moc"
