// Bench (not a CI test): export the PDF report of a 20-scenario run with 8 points each (goal ≤ 3 s),
// then open the history page over 1,000 stored runs.
// Run: build/<dir>/tests/bench/bench_report [--reps N] [--points N] [--report-only] [--keep DIR]
//   --reps N       report exports timed (default 5); the median is printed with every run's time
//   --points N     points per scenario (default 8)
//   --report-only  skip the 1,000-run history part
//   --keep DIR     copy the database (history.sqlite) and the last report (report.pdf) to DIR, e.g. to time
//                  the whole `throughline-cli --db DIR/history.sqlite report …` process
#include "core/storage/historyreader.h"
#include "tests/ui/history/historyfixture.h"
#include "ui/history/historypage.h"
#include "ui/history/runstablemodel.h"
#include "ui/report/reportdata.h"
#include "ui/report/reportwriter.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

using namespace Throughline;

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    int reps = 5, points = 8;
    bool reportOnly = false;
    QString keep;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--reps") == 0 && i + 1 < argc)
            reps = std::max(1, std::atoi(argv[++i]));
        else if (std::strcmp(argv[i], "--points") == 0 && i + 1 < argc)
            points = std::max(1, std::atoi(argv[++i]));
        else if (std::strcmp(argv[i], "--report-only") == 0)
            reportOnly = true;
        else if (std::strcmp(argv[i], "--keep") == 0 && i + 1 < argc)
            keep = QString::fromLocal8Bit(argv[++i]);
    }
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
                                    {"vllm", "sglang", "trtllm", "dynamo"}, 40, 1, {}, points)
                  .uuid;
        if (!reportOnly)
            for (int i = 0; i < 999; ++i)
                TestFixture::storeRun(writer, "run-" + std::to_string(i), {i % 2 ? "Chat" : "Reasoning"},
                                      {"vllm"}, 40, unsigned(i + 2), {i % 3 ? "nightly" : "weekly"});
        if (!writer.close().ok())
            return 1;
    }
    std::printf("setup: %d run(s) stored in %lld ms; run %s\n", reportOnly ? 1 : 1000,
                static_cast<long long>(t.elapsed()), big.c_str());

    const QString pdf = dir.filePath(QStringLiteral("report.pdf"));
    std::vector<qint64> totals;
    for (int r = 0; r < reps; ++r) {
        t.restart();
        HistoryReader reader;
        if (!reader.open(db).ok())
            return 1;
        auto data = ReportData::fromHistory(reader, big);
        if (!data)
            return 1;
        const qint64 readMs = t.elapsed();
        if (!ReportWriter::write(*data, pdf).ok())
            return 1;
        totals.push_back(t.elapsed());
        std::printf("20-scenario × %d-point report: read %lld ms, total %lld ms, %lld bytes\n", points,
                    static_cast<long long>(readMs), static_cast<long long>(totals.back()),
                    static_cast<long long>(QFileInfo(pdf).size()));
    }
    std::vector<qint64> sorted = totals;
    std::sort(sorted.begin(), sorted.end());
    std::printf("report median of %d: %lld ms (goal <= 3000 ms)\n", reps,
                static_cast<long long>(sorted[sorted.size() / 2]));
    if (!keep.isEmpty()) {
        QFile::remove(keep + QStringLiteral("/history.sqlite"));
        QFile::remove(keep + QStringLiteral("/report.pdf"));
        QFile::copy(QString::fromStdString(db), keep + QStringLiteral("/history.sqlite"));
        QFile::copy(pdf, keep + QStringLiteral("/report.pdf"));
    }
    if (reportOnly)
        return 0;

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
    return 0;
}
