// Bench (not a CI test): open the history page over 1,000 stored runs, and export a 20-scenario
// PDF report (goal ≤ 3 s). Run: build/<dir>/tests/bench/bench_report
#include "core/storage/historyreader.h"
#include "tests/ui/history/historyfixture.h"
#include "ui/history/historypage.h"
#include "ui/history/runstablemodel.h"
#include "ui/report/reportdata.h"
#include "ui/report/reportwriter.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QTemporaryDir>

#include <cstdio>

using namespace Throughline;

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QTemporaryDir dir;
    const std::string db = dir.filePath(QStringLiteral("history.sqlite")).toStdString();
    QElapsedTimer t;
    t.start();
    std::string big;
    {
        StorageWriter writer;
        if (!writer.open(db).ok())
            return 1;
        // 20 scenarios = 5 phases × 4 backends.
        big = TestFixture::storeRun(writer, "twenty",
                                    {"Chat", "Reasoning", "Summarization", "Generation", "Disaggregation"},
                                    {"vllm", "sglang", "trtllm", "dynamo"}, 40, 1)
                  .uuid;
        for (int i = 0; i < 999; ++i)
            TestFixture::storeRun(writer, "run-" + std::to_string(i), {i % 2 ? "Chat" : "Reasoning"},
                                  {"vllm"}, 40, unsigned(i + 2), {i % 3 ? "nightly" : "weekly"});
        if (!writer.close().ok())
            return 1;
    }
    std::printf("setup: 1000 runs stored in %lld ms\n", static_cast<long long>(t.elapsed()));

    t.restart();
    HistoryPage page(QString::fromStdString(db));
    std::printf("history page with %d runs opened in %lld ms\n", page.runsModel()->rowCount(),
                static_cast<long long>(t.elapsed()));
    t.restart();
    RunFilter f;
    f.tag = "weekly";
    f.text = "run-1";
    page.setFilter(f);
    std::printf("filter applied in %lld ms\n", static_cast<long long>(t.elapsed()));

    t.restart();
    HistoryReader reader;
    if (!reader.open(db).ok())
        return 1;
    auto data = ReportData::fromHistory(reader, big);
    if (!data)
        return 1;
    const qint64 readMs = t.elapsed();
    const QString pdf = dir.filePath(QStringLiteral("report.pdf"));
    if (!ReportWriter::write(*data, pdf).ok())
        return 1;
    std::printf("20-scenario report: read %lld ms, total %lld ms (goal <= 3000 ms), %lld bytes\n",
                static_cast<long long>(readMs), static_cast<long long>(t.elapsed()),
                static_cast<long long>(QFileInfo(pdf).size()));
    return 0;
}
