// The PDF report from a stored run: text, fonts, images and page size checked with poppler-utils.
#include "ui/guitestmain.h"
#include "historyfixture.h"

#include "core/storage/historyreader.h"
#include "core/storage/telemetryreader.h"
#include "ui/report/metrictexts.h"
#include "ui/report/reportdata.h"
#include "ui/report/reportdoc.h"
#include "ui/report/reportwriter.h"
#include "ui/report/telemetrycharts.h"
#include "ui/settings/translationloader.h"

#include <QPainter>
#include <QPdfWriter>
#include <QProcess>
#include <QUuid>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTranslator>
#include <QtTest>

using namespace Throughline;

class TstReportWriter : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    std::string m_db;
    TestFixture::StoredRun m_run;
    TestFixture::StoredRun m_twenty;    // 20 scenarios: 5 phases × 4 backends
    TestFixture::StoredRun m_candidate; // m_run's scenarios, other numbers

    static QString tool(const QString &name, const QStringList &args)
    {
        QProcess p;
        p.start(name, args);
        if (!p.waitForFinished(30000) || p.exitCode() != 0)
            return {};
        return QString::fromUtf8(p.readAllStandardOutput());
    }

    // pdftotext -bbox: per page its height and the words with their boxes (points, y down).
    struct Word {
        QRectF box;
        QString text;
    };
    struct Page {
        double height = 0;
        QList<Word> words;
    };
    static QList<Page> bboxPages(const QString &pdf)
    {
        const QString html = tool(u"pdftotext"_qs, {u"-bbox"_qs, pdf, u"-"_qs});
        QList<Page> pages;
        static const QRegularExpression page(u"<page width=\"([0-9.]+)\" height=\"([0-9.]+)\">"_qs);
        static const QRegularExpression word(
            u"<word xMin=\"([0-9.]+)\" yMin=\"([0-9.]+)\" xMax=\"([0-9.]+)\" yMax=\"([0-9.]+)\">([^<]*)</word>"_qs);
        for (const QString &line : html.split(u'\n')) {
            if (auto m = page.match(line); m.hasMatch()) {
                pages.append(Page{m.captured(2).toDouble(), {}});
            } else if (auto w = word.match(line); w.hasMatch() && !pages.isEmpty()) {
                pages.last().words.append(
                    {QRectF(QPointF(w.captured(1).toDouble(), w.captured(2).toDouble()),
                            QPointF(w.captured(3).toDouble(), w.captured(4).toDouble())),
                     w.captured(5)});
            }
        }
        return pages;
    }
    // How far down its body a page is filled (0…1): the lowest word above the footer, between the
    // top margin (16 mm) and the footer zone.
    static double fill(const Page &p)
    {
        const double top = 16 / 25.4 * 72, bottom = p.height - 62;
        double lowest = top;
        for (const Word &w : p.words)
            if (w.box.top() < bottom)
                lowest = std::max(lowest, w.box.bottom());
        return (lowest - top) / (bottom - top);
    }
    static QString firstWord(const Page &p)
    {
        const Word *first = nullptr;
        for (const Word &w : p.words)
            if (!first || w.box.top() < first->box.top() - 1 ||
                (std::abs(w.box.top() - first->box.top()) <= 1 && w.box.left() < first->box.left()))
                first = &w;
        return first ? first->text : QString();
    }
    // The document rules of issue 20 on a written PDF: page 1 holds the verdict matrix and a chart, no
    // text line longer than 200 characters, every page at least 40 % full unless the next page starts a
    // section (or it is the last), every font embedded, no raster image.
    static void checkLayout(const QString &pdf, const QString &matrixHeading, const QString &chartTitle,
                            const QStringList &sectionWords)
    {
        const QString page1 = tool(u"pdftotext"_qs, {u"-f"_qs, u"1"_qs, u"-l"_qs, u"1"_qs, pdf, u"-"_qs})
                                  .normalized(QString::NormalizationForm_KC);
        QVERIFY2(page1.contains(matrixHeading), qPrintable(page1.left(400)));
        QVERIFY2(page1.contains(chartTitle), qPrintable(page1.left(400)));
        const QString raw = tool(u"pdftotext"_qs, {pdf, u"-"_qs});
        for (const QString &line : raw.split(u'\n'))
            QVERIFY2(line.size() <= 200, qPrintable(line.left(120)));
        const QList<Page> pages = bboxPages(pdf);
        QVERIFY(pages.size() >= 3);
        for (int i = 0; i + 1 < pages.size(); ++i) {
            const bool sectionEnds = sectionWords.contains(firstWord(pages[i + 1]));
            QVERIFY2(sectionEnds || fill(pages[i]) >= 0.40,
                     qPrintable(u"page %1 filled %2 %, next page starts with %3"_qs.arg(i + 1)
                                    .arg(fill(pages[i]) * 100, 0, 'f', 0)
                                    .arg(firstWord(pages[i + 1]))));
        }
        const QStringList fontLines = tool(u"pdffonts"_qs, {pdf}).split(u'\n', Qt::SkipEmptyParts).mid(2);
        QVERIFY(!fontLines.isEmpty());
        for (const QString &l : fontLines) {
            const QStringList cols = l.split(QRegularExpression(u"\\s+"_qs), Qt::SkipEmptyParts);
            QVERIFY2(cols.size() >= 5 && cols.at(cols.size() - 5) == u"yes"_qs, qPrintable(l));
        }
        QCOMPARE(tool(u"pdfimages"_qs, {u"-list"_qs, pdf}).split(u'\n', Qt::SkipEmptyParts).size(), 2);
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_db = m_dir.filePath(u"history.sqlite"_qs).toStdString();
        StorageWriter writer;
        QVERIFY(writer.open(m_db).ok());
        m_run = TestFixture::storeRun(writer, "demo-like", {"Chat", "Reasoning"}, {"vllm", "sglang"}, 50, 7);
        m_candidate =
            TestFixture::storeRun(writer, "demo-like", {"Chat", "Reasoning"}, {"vllm", "sglang"}, 65, 8);
        m_twenty = TestFixture::storeRun(
            writer, "twenty", {"Chat", "Reasoning", "Summarization", "Generation", "Disaggregation"},
            {"vllm", "sglang", "trtllm", "dynamo"}, 40, 11);
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
        QVERIFY(text.contains(u"Appendix B: metric definitions"_qs));
        QVERIFY(text.contains(u"output_tps_per_gpu"_qs));
        QVERIFY(text.contains(u"Endpoint: simulated"_qs));
        QVERIFY(data->telemetry.byScenario.empty()); // no telemetry stored: the block is left out
        QVERIFY(!text.contains(u"Server telemetry over time"_qs));

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
        checkLayout(pdf, u"Verdicts (model × deployment × phase)"_qs, u"throughput vs interactivity"_qs,
                    {u"Phase"_qs, u"Appendix"_qs});
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

    // Server telemetry over time (telemetry_series): per scenario KV cache, running/waiting and GPU power
    // summed per target, read back from the database, charted through the chart model with each point's
    // window shaded, and found in the PDF.
    void telemetryOverTime()
    {
        const std::string db = m_dir.filePath(u"series.sqlite"_qs).toStdString();
        TestFixture::StoredRun run;
        {
            StorageWriter writer;
            QVERIFY(writer.open(db).ok());
            run = TestFixture::storeRunWithRequests(writer, "series", {"Chat", "Reasoning"}, 60, 5);
            QVERIFY(writer.flush().ok());
            QVERIFY(writer.close().ok());
        }
        HistoryReader reader;
        QVERIFY(reader.open(db).ok());
        auto data = ReportData::fromHistory(reader, run.uuid);
        QVERIFY2(data.ok(), data.ok() ? "" : data.error().message.c_str());
        TelemetryReader raw;
        QVERIFY(raw.open(db).ok());
        auto stored = raw.series(run.uuid);
        QVERIFY(stored.ok());
        QCOMPARE(data->telemetry.byScenario.size(), std::size_t(2));
        for (int si = 0; si < 2; ++si) {
            const ScenarioResult &s = data->run.scenarios[std::size_t(si)];
            const ReportTelemetry::Scenario *t = data->telemetry.find(s.id);
            QVERIFY2(t, s.id.c_str());
            // Expected from the stored series: KV extremes, and the power sum of the two GPUs at each scrape.
            double kvMin = 1e300, kvMax = -1e300;
            std::map<std::int64_t, double> powerSum;
            for (const StoredTelemetrySeries &x : *stored) {
                if (x.scenarioIndex != si)
                    continue;
                for (const TelemetrySample &v : x.samples) {
                    if (x.metric == "kv_cache_usage")
                        kvMin = std::min(kvMin, v.value), kvMax = std::max(kvMax, v.value);
                    if (x.metric == "gpu_power_w")
                        powerSum[v.tNs] += v.value;
                }
            }
            QVERIFY(!powerSum.empty());
            int kvTraces = 0, powerTraces = 0;
            for (const ReportTelemetry::Trace &tr : t->traces) {
                QVERIFY(!tr.points.empty() && tr.points.size() <= 2 * ReportTelemetry::kBuckets);
                if (tr.metric == "kv_cache_usage") {
                    ++kvTraces;
                    const auto [lo, hi] =
                        std::minmax_element(tr.points.begin(), tr.points.end(),
                                            [](const auto &a, const auto &b) { return a.second < b.second; });
                    QCOMPARE(lo->second, kvMin);
                    QCOMPARE(hi->second, kvMax);
                }
                if (tr.metric == "gpu_power_w") {
                    ++powerTraces;
                    QCOMPARE(tr.summed, 2);
                    QCOMPARE(tr.points.size(), powerSum.size());
                    for (const auto &[tS, w] : tr.points)
                        QVERIFY(std::abs(w - powerSum.at(std::llround(tS * 1e9))) < 1e-6);
                }
            }
            QCOMPARE(kvTraces, 1);
            QCOMPARE(powerTraces, 1);

            const QList<Chart> charts = TelemetryCharts::overTime(s, *t);
            QCOMPARE(charts.size(), 3); // KV cache, requests (running + waiting), power
            QCOMPARE(charts[1].series.size(), 2);
            for (const Chart &c : charts) {
                QCOMPARE(c.regions.size(), qsizetype(s.points.size())); // one window per load point
                QCOMPARE(c.regions.front().label, u"C=4"_qs);
                QCOMPARE(c.regions.back().label, u"C=64"_qs);
                QVERIFY(c.regions.front().x0 >= 0);
                for (const ChartSeries &series : c.series)
                    QCOMPARE(series.markerCount(), 0); // lines: a dense series has no markers
            }
            double kvChartMax = 0;
            for (const ChartPoint &p : charts[0].series.front().points)
                kvChartMax = std::max(kvChartMax, p.y);
            QCOMPARE(kvChartMax, kvMax * 100);
        }
        const QString pdf = m_dir.filePath(u"series.pdf"_qs);
        QVERIFY(ReportWriter::write(*data, pdf).ok());
        if (qEnvironmentVariableIsSet("THROUGHLINE_REPORT_KEEP"))
            QFile::copy(pdf, qEnvironmentVariable("THROUGHLINE_REPORT_KEEP") + u"/series.pdf"_qs);
        const QString text =
            tool(u"pdftotext"_qs, {u"-layout"_qs, pdf, u"-"_qs}).normalized(QString::NormalizationForm_KC);
        QCOMPARE(text.count(u"Server telemetry over time"_qs), 2);
        QCOMPARE(text.count(u"KV-cache usage over time"_qs), 2);
        QCOMPARE(text.count(u"Requests in the server over time"_qs), 2);
        QCOMPARE(text.count(u"GPU power over time"_qs), 2);
        QVERIFY(text.contains(u"time in the scenario (s)"_qs));
        checkLayout(pdf, u"Verdicts (model × deployment × phase)"_qs, u"throughput vs interactivity"_qs,
                    {u"Phase"_qs, u"Appendix"_qs});
        // In German.
        QVERIFY(TranslationLoader::install(QCoreApplication::instance(), u"de"_qs));
        const QString de = m_dir.filePath(u"series-de.pdf"_qs);
        const Status st = ReportWriter::write(*data, de);
        for (QTranslator *t : QCoreApplication::instance()->findChildren<QTranslator *>()) {
            QCoreApplication::removeTranslator(t);
            delete t;
        }
        QVERIFY(st.ok());
        const QString deText =
            tool(u"pdftotext"_qs, {u"-layout"_qs, de, u"-"_qs}).normalized(QString::NormalizationForm_KC);
        for (const QString &heading : {u"Server-Telemetrie über die Zeit"_qs,
                                       u"KV-Cache-Belegung über die Zeit"_qs, u"Zeit im Szenario (s)"_qs})
            QCOMPARE(deText.count(heading), heading.startsWith(u"Zeit"_qs) ? 6 : 2);
        QVERIFY(!deText.contains(u"over time"_qs));
    }

    // Thinning for print keeps each bucket's minimum and maximum in time order.
    void telemetryDownsample()
    {
        std::vector<std::pair<double, double>> points;
        for (int i = 0; i < 10'000; ++i)
            points.emplace_back(i * 0.1, std::sin(i * 0.01));
        points[4321].second = 7.5; // a one-sample spike
        points[8765].second = -3;
        const auto thin = ReportTelemetry::downsample(points, 200);
        QVERIFY(thin.size() <= 400 && thin.size() >= 200);
        QVERIFY(std::is_sorted(thin.begin(), thin.end()));
        QCOMPARE(thin.front().first, 0.0);
        QVERIFY(std::find(thin.begin(), thin.end(), points[4321]) != thin.end());
        QVERIFY(std::find(thin.begin(), thin.end(), points[8765]) != thin.end());
        QCOMPARE(ReportTelemetry::downsample({{0, 1}, {1, 2}}, 200).size(), std::size_t(2));
    }

    // A 20-scenario report reads like a document: the layout rules hold, every scenario id and every
    // verdict appears, and the provenance is rows (no JSON text).
    void twentyScenarioLayout()
    {
        HistoryReader reader;
        QVERIFY(reader.open(m_db).ok());
        auto data = ReportData::fromHistory(reader, m_twenty.uuid);
        QVERIFY(data.ok());
        QCOMPARE(data->run.scenarios.size(), std::size_t(20));
        const QString pdf = m_dir.filePath(u"twenty.pdf"_qs);
        QVERIFY(ReportWriter::write(*data, pdf).ok());
        if (qEnvironmentVariableIsSet("THROUGHLINE_REPORT_KEEP"))
            QFile::copy(pdf, qEnvironmentVariable("THROUGHLINE_REPORT_KEEP") + u"/twenty.pdf"_qs);
        checkLayout(pdf, u"Verdicts (model × deployment × phase)"_qs, u"throughput vs interactivity"_qs,
                    {u"Phase"_qs, u"Appendix"_qs});
        const QString text =
            tool(u"pdftotext"_qs, {u"-layout"_qs, pdf, u"-"_qs}).normalized(QString::NormalizationForm_KC);
        auto detail = reader.runDetail(m_twenty.uuid);
        QVERIFY(detail.ok());
        for (const ScenarioRow &sc : detail->scenarios)
            QVERIFY2(text.contains(QString::fromStdString(sc.key) + u" — "_qs +
                                   QString::fromStdString(sc.verdict)),
                     sc.key.c_str());
        QVERIFY(!text.contains(u"{\""_qs)); // no JSON object text anywhere
        QVERIFY(text.contains(u"endpoint.url"_qs) && text.contains(u"http://127.0.0.1:8000/v1"_qs));
        // The contents lists each phase section with its page.
        for (const char *phase : {"Chat", "Reasoning", "Summarization", "Generation", "Disaggregation"})
            QVERIFY2(text.contains(QRegularExpression(u"Phase "_qs + QString::fromLatin1(phase) +
                                                      u" \\(ISL \\d+ / OSL \\d+\\)\\s+\\d+"_qs)),
                     phase);
        // Each contents line is a link to the page it names, and that page holds the heading (read back by
        // poppler: pdftohtml -xml puts a link around the text its rectangle covers).
        const QString xml = tool(u"pdftohtml"_qs, {u"-xml"_qs, u"-i"_qs, u"-stdout"_qs, pdf});
        static const QRegularExpression link(
            u"<text top=\"(\\d+)\"[^>]*><a href=\"[^\"#]*#(\\d+)\">(?:<b>)?([^<]+)(?:</b>)?</a></text>"_qs);
        QMap<int, QList<std::pair<QString, int>>> linesByTop; // per contents row: texts and the linked page
        int page = 0, titles = 0;
        static const QRegularExpression pageTag(u"<page number=\"(\\d+)\""_qs);
        for (const QString &line : xml.split(u'\n')) {
            if (auto m = pageTag.match(line); m.hasMatch())
                page = m.captured(1).toInt();
            auto m = link.match(line);
            if (!m.hasMatch())
                continue;
            const QString label = m.captured(3).normalized(QString::NormalizationForm_KC);
            const int target = m.captured(2).toInt();
            linesByTop[page * 10000 + m.captured(1).toInt()].append({label, target});
        }
        for (const auto &row : linesByTop) {
            QCOMPARE(row.size(), 2); // the title and its page number, both linked
            const auto &[title, target] = row.front();
            QCOMPARE(row.back().first.toInt(), target); // links to the page the line prints
            const QString targetText =
                tool(u"pdftotext"_qs, {u"-f"_qs, QString::number(target), u"-l"_qs, QString::number(target),
                                       u"-layout"_qs, pdf, u"-"_qs})
                    .normalized(QString::NormalizationForm_KC);
            QVERIFY2(targetText.contains(title),
                     qPrintable(title + u" → page "_qs + QString::number(target)));
            ++titles;
        }
        QVERIFY2(titles >= 5 + 20 + 4, qPrintable(QString::number(titles))); // phases, scenarios, appendices
        // The same headings as bookmarks (the viewer's sidebar), subsections nested under their section.
        QStringList fromLinks, fromOutline;
        for (const auto &row : linesByTop)
            fromLinks << row.front().first + u" → "_qs + QString::number(row.front().second);
        static const QRegularExpression item(u"<item page=\"(\\d+)\">([^<]+)</item>"_qs);
        int depth = 0, nested = 0;
        for (const QString &line : xml.split(u'\n')) {
            depth += line.startsWith(u"<outline>"_qs) ? 1 : line.startsWith(u"</outline>"_qs) ? -1 : 0;
            if (auto m = item.match(line); m.hasMatch()) {
                const QString title = m.captured(2).normalized(QString::NormalizationForm_KC);
                fromOutline << title + u" → "_qs + m.captured(1);
                if (depth == 2) {
                    QVERIFY2(!title.startsWith(u"Phase"_qs) && !title.startsWith(u"Appendix"_qs),
                             qPrintable(title));
                    ++nested;
                }
            }
        }
        QCOMPARE(nested, 2 * 20); // each scenario under its phase and under Appendix D (per-point details)
        fromLinks.sort();
        fromOutline.sort();
        QCOMPARE(fromOutline, fromLinks);
    }

    // With the German catalogue installed (the app's language, or report --lang de) the report is German.
    void germanReport()
    {
        QVERIFY(TranslationLoader::install(QCoreApplication::instance(), u"de"_qs));
        HistoryReader reader;
        QVERIFY(reader.open(m_db).ok());
        auto data = ReportData::fromHistory(reader, m_run.uuid);
        QVERIFY(data.ok());
        const QString pdf = m_dir.filePath(u"de.pdf"_qs);
        const Status st = ReportWriter::write(*data, pdf);
        for (QTranslator *t : QCoreApplication::instance()->findChildren<QTranslator *>()) {
            QCoreApplication::removeTranslator(t);
            delete t;
        }
        QVERIFY(st.ok());
        if (qEnvironmentVariableIsSet("THROUGHLINE_REPORT_KEEP"))
            QFile::copy(pdf, qEnvironmentVariable("THROUGHLINE_REPORT_KEEP") + u"/de.pdf"_qs);
        const QString text =
            tool(u"pdftotext"_qs, {u"-layout"_qs, pdf, u"-"_qs}).normalized(QString::NormalizationForm_KC);
        for (const QString &heading :
             {u"Benchmark-Bericht"_qs, u"Urteile (Modell × Deployment × Phase)"_qs, u"Inhalt"_qs,
              u"Anhang A: Herkunft"_qs, u"Anhang B: Metrikdefinitionen"_qs,
              u"Anhang C: Hinweise zur Gültigkeit"_qs, u"Seite 1 von"_qs, u"bestanden"_qs})
            QVERIFY2(text.contains(heading), qPrintable(heading));
        QVERIFY(!text.contains(u"Appendix"_qs));
        QVERIFY(!text.contains(u"Page 1 of"_qs));
        // The checks' outcome and kind words too (Referenz, SLO, bestanden / nicht bestanden).
        QVERIFY(text.contains(QRegularExpression(u"Referenz\\s+(nicht )?bestanden"_qs)));
        QVERIFY(!text.contains(QRegularExpression(u"\\b(pass|fail|baseline|slo)\\b"_qs)));
        // Where a target came from, in German too; the validity notes go through ValidityNotes
        // (tst_validitynotes).
        QVERIFY(text.contains(u"Szenario-SLO"_qs));
        QVERIFY(!text.contains(u"scenario SLO"_qs));
        // Appendix B in German: each definition's German opening words (from the catalogue), no English
        // one. Words compared with whitespace folded (table cells wrap).
        const QString flat = tool(u"pdftotext"_qs, {u"-raw"_qs, pdf, u"-"_qs})
                                 .normalized(QString::NormalizationForm_KC)
                                 .simplified()
                                 .remove(u"- "_qs); // a word broken at a line end
        QVERIFY(flat.contains(u"Schlüssel Name (Einheit) Definition"_qs));
        int defs = 0;
        QVERIFY(TranslationLoader::install(QCoreApplication::instance(), u"de"_qs));
        for (const auto &m : data->metricDefinitions) {
            const std::string english = m.at("tooltip").get<std::string>();
            const QString german = MetricTexts::translate(english);
            const QString opening = german.section(u' ', 0, 3).remove(u"- "_qs);
            QVERIFY2(flat.contains(opening), qPrintable(opening));
            const QString englishOpening = QString::fromStdString(english).section(u' ', 0, 5);
            QVERIFY2(!flat.contains(englishOpening), qPrintable(englishOpening));
            ++defs;
        }
        for (QTranslator *t : QCoreApplication::instance()->findChildren<QTranslator *>()) {
            QCoreApplication::removeTranslator(t);
            delete t;
        }
        QVERIFY(defs >= 10);
        checkLayout(pdf, u"Urteile (Modell × Deployment × Phase)"_qs, u"Durchsatz vs. Interaktivität"_qs,
                    {u"Phase"_qs, u"Anhang"_qs});
    }

    // Every label, unit, definition and stat meaning of the metric catalogue has a German entry (a text
    // the catalogue gains without one in ui/report/metrictexts.cpp fails here), and German differs from
    // the English for every definition.
    void germanMetricDefinitions()
    {
        QFile f(u":/catalog/metric_definitions.json"_qs);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const auto catalogue = nlohmann::json::parse(f.readAll().toStdString());
        QStringList english;
        for (const auto &m : catalogue.at("metrics"))
            for (const char *k : {"label", "unit", "tooltip"})
                english << QString::fromStdString(m.at(k).get<std::string>());
        for (const auto &st : catalogue.at("stats"))
            english << QString::fromStdString(st.at("meaning").get<std::string>());
        QVERIFY(english.size() > 40);
        for (const QString &e : english)
            QVERIFY2(MetricTexts::known(e.toStdString()), qPrintable(u"no German entry: "_qs + e));
        QVERIFY(!MetricTexts::known("a text no catalogue has"));
        QVERIFY(TranslationLoader::install(QCoreApplication::instance(), u"de"_qs));
        int differ = 0;
        for (const auto &m : catalogue.at("metrics")) {
            const std::string tip = m.at("tooltip").get<std::string>();
            const QString de = MetricTexts::translate(tip);
            differ += de != QString::fromStdString(tip) && !de.isEmpty() ? 1 : 0;
        }
        const QString tokensPerGpu = MetricTexts::translate("tokens/s/GPU");
        for (QTranslator *t : QCoreApplication::instance()->findChildren<QTranslator *>()) {
            QCoreApplication::removeTranslator(t);
            delete t;
        }
        QCOMPARE(differ, int(catalogue.at("metrics").size()));
        QCOMPARE(tokensPerGpu, u"Tokens/s/GPU"_qs);
        QCOMPARE(MetricTexts::translate("tokens/s/GPU"), u"tokens/s/GPU"_qs); // English again
    }

    // report --compare: both run ids and, per scenario and metric, baseline, candidate, Δ and Δ % as the
    // two runs' operating points give them.
    void comparisonReport()
    {
        HistoryReader reader;
        QVERIFY(reader.open(m_db).ok());
        std::vector<ReportData> runs;
        for (const auto *r : {&m_run, &m_candidate}) {
            auto d = ReportData::fromHistory(reader, r->uuid);
            QVERIFY(d.ok());
            runs.push_back(std::move(*d));
        }
        QVERIFY(!ReportWriter::writeComparison({runs.front()}, m_dir.filePath(u"one.pdf"_qs), {}).ok());
        const QString pdf = m_dir.filePath(u"compare.pdf"_qs);
        QVERIFY(ReportWriter::writeComparison(runs, pdf, {}).ok());
        if (qEnvironmentVariableIsSet("THROUGHLINE_REPORT_KEEP"))
            QFile::copy(pdf, qEnvironmentVariable("THROUGHLINE_REPORT_KEEP") + u"/compare.pdf"_qs);
        const QString text =
            tool(u"pdftotext"_qs, {u"-layout"_qs, pdf, u"-"_qs}).normalized(QString::NormalizationForm_KC);
        QVERIFY(text.contains(QString::fromStdString(m_run.uuid)));
        QVERIFY(text.contains(QString::fromStdString(m_candidate.uuid)));
        QVERIFY(text.contains(u"Deltas per metric at the operating points"_qs));
        QVERIFY(text.contains(u"What changed in the environment"_qs));
        int checked = 0;
        for (const ScenarioResult &b : runs[0].run.scenarios) {
            const ScenarioResult *c = nullptr;
            for (const ScenarioResult &s : runs[1].run.scenarios)
                if (s.id == b.id)
                    c = &s;
            QVERIFY(c);
            if (b.verdict.operatingPoint < 0 || c->verdict.operatingPoint < 0)
                continue;
            const double bv = b.points[std::size_t(b.verdict.operatingPoint)].metrics.outputTpsPerGpu;
            const double cv = c->points[std::size_t(c->verdict.operatingPoint)].metrics.outputTpsPerGpu;
            QVERIFY(std::abs(cv - bv) > 0.05); // the fixture's runs differ
            const auto sign = [](double v) { return v > 0 ? u"+"_qs : QString(); };
            const QString row =
                QRegularExpression::escape(ReportWriter::number(bv, 1)) + u"\\s+"_qs +
                QRegularExpression::escape(ReportWriter::number(cv, 1)) + u"\\s+"_qs +
                QRegularExpression::escape(sign(cv - bv) + ReportWriter::number(cv - bv, 1)) + u"\\s+"_qs +
                QRegularExpression::escape(sign(cv - bv) + ReportWriter::number((cv - bv) / bv * 100, 1));
            QVERIFY2(text.contains(QRegularExpression(row)), qPrintable(row));
            ++checked;
        }
        QVERIFY(checked >= 2);
    }

    // The comparison report's "Changes beyond noise": two real demo runs (tests/data/results, jitter 0.1)
    // where the candidate's deployment is 10 % slower — the candidate regressed, on output_tps at both
    // points, with each value's interval printed; a run against itself is within noise, and nothing
    // regressed.
    void comparisonBeyondNoise()
    {
        auto load = [](const char *name) {
            auto r = ReportData::fromResultsJson(std::string(THROUGHLINE_TEST_DATA_DIR "/results/") + name);
            if (!r)
                qFatal("%s", r.error().message.c_str());
            return *r;
        };
        const ReportData base = load("compare-base.json"), slow = load("compare-slow10.json");
        auto pdfText = [this](const std::vector<ReportData> &runs, const QString &name) {
            const QString pdf = m_dir.filePath(name);
            if (!ReportWriter::writeComparison(runs, pdf, {}).ok())
                return QString();
            if (qEnvironmentVariableIsSet("THROUGHLINE_REPORT_KEEP"))
                QFile::copy(pdf, qEnvironmentVariable("THROUGHLINE_REPORT_KEEP") + u'/' + name);
            return tool(u"pdftotext"_qs, {u"-layout"_qs, pdf, u"-"_qs})
                .normalized(QString::NormalizationForm_KC);
        };
        const QString text = pdfText({base, slow}, u"compare-noise.pdf"_qs);
        QVERIFY(text.contains(u"Changes beyond noise"_qs));
        const QString id = QString::fromStdString(slow.run.runId.substr(0, 8));
        const QString folded = text.simplified(); // paragraphs wrap
        QVERIFY2(folded.contains(
                     QRegularExpression(u"Candidate "_qs + id + u": regressed — [1-9]\\d* regressed"_qs)),
                 qPrintable(folded));
        // Each shared point's throughput row: its load, the metric, the two values with intervals, a negative
        // change with its interval, regressed.
        const QRegularExpression row(
            u"output_tps\\s+[\\d.]+ \\[[\\d.]+, [\\d.]+\\]\\s+[\\d.]+ \\[[\\d.]+, [\\d.]+\\]\\s+"
            u"-[\\d.]+\\s+\\[-[\\d.]+, -[\\d.]+\\]\\s+regressed"_qs);
        int regressedRows = 0;
        for (const QString &line : text.split(u'\n'))
            regressedRows +=
                line.contains(row) && (line.contains(u" C=8 "_qs) || line.contains(u" C=16 "_qs)) ? 1 : 0;
        QVERIFY2(regressedRows == 2, qPrintable(text));

        const QString same = pdfText({base, base}, u"compare-same.pdf"_qs);
        QVERIFY2(same.simplified().contains(
                     QRegularExpression(u"Candidate \\w+: within noise — 0 regressed, 0 improved"_qs)),
                 qPrintable(same));
    }

    // A narrow table cell holding one word wider than its column (a run id) breaks inside that word only:
    // the rest of the cell keeps its words whole. Ids of different letters (different widths) put the
    // forced break at different places; "stored point N" must come out whole for every one (the planner
    // cell that broke as "stored po|int 3" depending on the run id's letters).
    void overWideWordBreaksOnlyItself()
    {
        const QString pdf = m_dir.filePath(u"wrap.pdf"_qs);
        {
            QPdfWriter writer(pdf);
            writer.setResolution(300);
            QPainter painter;
            QVERIFY(painter.begin(&writer));
            ReportDoc doc(writer, &painter, {}, 1, u"wrap test"_qs);
            QStringList headers;
            for (int c = 0; c < 10; ++c)
                headers << u"Column %1"_qs.arg(c);
            QList<ReportDoc::Row> rows;
            for (int i = 0; i < 24; ++i) {
                const QString id = QUuid::createUuidV5(QUuid(), QString::number(i)).toString(QUuid::Id128);
                ReportDoc::Row row;
                for (int c = 0; c < 10; ++c)
                    row.append(ReportDoc::Cell{
                        c == 2 ? u"concurrency 64 of run %1, stored point %2"_qs.arg(id).arg(i + 100)
                               : u"$0.364 per 1M output tokens"_qs,
                        {}});
                rows.append(row);
            }
            doc.table(headers, rows);
            QVERIFY(painter.end());
        }
        // -raw: content-stream order, each cell's lines in sequence (see tst_planpage::reportSection).
        const QString text = tool(u"pdftotext"_qs, {u"-raw"_qs, pdf, u"-"_qs}).simplified();
        for (int i = 0; i < 24; ++i)
            QVERIFY2(text.contains(u"stored point %1"_qs.arg(i + 100)), qPrintable(QString::number(i)));
        QVERIFY(text.contains(u"concurrency 64 of run"_qs));
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
