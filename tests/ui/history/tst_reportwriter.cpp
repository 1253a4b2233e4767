// The PDF report from a stored run: text, fonts, images and page size checked with poppler-utils.
#include "ui/guitestmain.h"
#include "historyfixture.h"

#include "core/storage/historyreader.h"
#include "ui/report/reportdata.h"
#include "ui/report/reportwriter.h"

#include <QProcess>
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
