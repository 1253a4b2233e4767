// MLPerf Endpoints result_summary.json into History: summaries Throughline writes beside results.json import
// (as a directory, one run with a point per file) and read back from the SQLite history to the same values —
// written again they are byte-identical; a file in the client's own shape (tests/data/mlperf/
// result_summary_client_shape.json: the keys of mlcommons/endpoints src/inference_endpoint/metrics/report.py
// Report.to_json at commit 03cd909097caf5b7afb13daaa82dee5c6f439806, full percentile grid, histogram,
// early_stopping block; values synthetic — no real result_summary.json is public) imports with its counts,
// percentiles and throughput; auto-detection; errors name the file.
#include "core/results/resultsjson.h"
#include "core/storage/resultsummary.h"
#include "core/storage/historyreader.h"
#include "core/storage/resultimporter.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <random>

using namespace Throughline;

namespace {

PointResult seededPoint(int concurrency, unsigned seed)
{
    std::mt19937_64 rng(seed);
    std::lognormal_distribution<double> ttft(std::log(150.0 + concurrency), 0.4),
        tpot(std::log(15.0 + concurrency / 10.0), 0.2), e2e(std::log(20000.0), 0.3);
    std::vector<double> a, b, c;
    for (int i = 0; i < 500 + concurrency; ++i) {
        a.push_back(ttft(rng));
        b.push_back(tpot(rng));
        c.push_back(e2e(rng));
    }
    PointResult p;
    p.load.concurrency = concurrency;
    p.windowS = 600.25 + concurrency;
    p.nSent = 500 + concurrency;
    p.nOk = p.nSent;
    p.metrics.ttftMs = summarize(a);
    p.metrics.tpotMlperfMs = summarize(b);
    p.metrics.e2eMs = summarize(c);
    p.metrics.outputTpsMlperf = 100.5 * concurrency;
    return p;
}

RunResults seededRun()
{
    RunResults run;
    run.runId = "5b0e8c1d-2a3f-4e5b-8c7d-9e0f1a2b3c4d";
    run.toolVersion = "0.1.0";
    run.timeScale = 0.01;
    ScenarioResult s;
    s.id = "gpt-oss-120b/vllm/H200×1/Chat";
    for (int c : {16, 64, 256})
        s.points.push_back(seededPoint(c, static_cast<unsigned>(c)));
    PointResult rate = seededPoint(8, 8); // a rate point has no MLPerf summary
    rate.load.mode = PointLoad::Mode::Rate;
    s.points.push_back(rate);
    run.scenarios.push_back(s);
    return run;
}

std::string readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll().toStdString() : std::string();
}

} // namespace

class TestMlperfSummaryImport : public QObject
{
    Q_OBJECT
private slots:
    void writtenSummariesReimportToIdenticalValues()
    {
        QTemporaryDir tmp;
        const std::string out = tmp.filePath(QStringLiteral("out")).toStdString();
        const RunResults run = seededRun();
        auto n = Mlperf::writeResultSummaries(run, out, "abc123def456");
        QVERIFY2(n.ok(), n.ok() ? "" : n.error().message.c_str());
        QCOMPARE(*n, 3);
        const QString r64 = QString::fromStdString(out) +
                            QStringLiteral("/mlperf/gpt-oss-120b_vllm_H200x1_Chat/r64/result_summary.json");
        QVERIFY2(QFile::exists(r64), qPrintable(r64));

        const std::string db = tmp.filePath(QStringLiteral("h.sqlite")).toStdString();
        auto sum = ResultImporter::importFile(out + "/mlperf", ResultImporter::Format::Auto, db);
        QVERIFY2(sum.ok(), sum.ok() ? "" : sum.error().message.c_str());
        QCOMPARE(sum->format, std::string("mlperf-endpoints"));
        QCOMPARE(sum->scenarios, 1);
        QCOMPARE(sum->points, 3);

        HistoryReader reader;
        QVERIFY(reader.open(db));
        auto detail = reader.runDetail(sum->uuid);
        QVERIFY(detail.ok());
        QCOMPARE(detail->summary.timeScale, 0.01);
        QCOMPARE(detail->scenarios.size(), std::size_t(1));
        QCOMPARE(detail->scenarios[0].key, std::string("gpt-oss-120b/vllm/H200×1/Chat"));
        QCOMPARE(detail->points.size(), std::size_t(3));
        const ScenarioResult &orig = run.scenarios[0];
        for (std::size_t i = 0; i < 3; ++i) {
            const PointRow &row = detail->points[i];
            auto stored = PointResult::fromJson(row.aggregates);
            QVERIFY2(stored.ok(), stored.ok() ? "" : stored.error().message.c_str());
            const PointResult &want = orig.points[i];
            QCOMPARE(stored->load.concurrency, want.load.concurrency);
            QCOMPARE(stored->nSent, want.nSent);
            QCOMPARE(stored->windowS, want.windowS);
            QCOMPARE(stored->metrics.outputTpsMlperf, want.metrics.outputTpsMlperf);
            QCOMPARE(stored->metrics.tpotMlperfMs.n, want.metrics.tpotMlperfMs.n);
            QVERIFY(std::fabs(stored->metrics.tpotMlperfMs.p[1] - want.metrics.tpotMlperfMs.p[1]) <= 0.5e-6);
            QVERIFY(std::fabs(stored->metrics.ttftMs.mean - want.metrics.ttftMs.mean) <= 0.5e-6);
            // History's curve columns are filled from the MLPerf TPOT.
            QVERIFY(std::fabs(row.tpotMsP90 - want.metrics.tpotMlperfMs.p[1]) <= 0.5e-6);
            // Written again from History: byte-identical to the file.
            const Mlperf::SummaryProvenance prov{run.toolVersion, "abc123def456",      run.runId,
                                                 orig.id,         static_cast<int>(i), run.timeScale};
            const QString file =
                QString::fromStdString(out) + QStringLiteral("/mlperf/gpt-oss-120b_vllm_H200x1_Chat/r") +
                QString::number(want.load.concurrency) + QStringLiteral("/result_summary.json");
            QCOMPARE(Mlperf::resultSummaryOf(*stored, prov).dump(2) + "\n", readAll(file));
        }
    }

    void clientShapeImports()
    {
        QTemporaryDir tmp;
        const std::string db = tmp.filePath(QStringLiteral("h.sqlite")).toStdString();
        const std::string path = THROUGHLINE_TEST_DATA_DIR "/mlperf/result_summary_client_shape.json";
        auto sum = ResultImporter::importFile(path, ResultImporter::Format::Auto, db);
        QVERIFY2(sum.ok(), sum.ok() ? "" : sum.error().message.c_str());
        QCOMPARE(sum->format, std::string("mlperf-endpoints"));
        QCOMPARE(sum->points, 1);
        HistoryReader reader;
        QVERIFY(reader.open(db));
        auto detail = reader.runDetail(sum->uuid);
        QVERIFY(detail.ok());
        auto p = PointResult::fromJson(detail->points[0].aggregates);
        QVERIFY(p.ok());
        QCOMPARE(p->load.concurrency, 64); // run_config.load_pattern.target_concurrency
        QCOMPARE(p->nSent, 4388);
        QCOMPARE(p->nOk, 4386);
        QCOMPARE(p->errors.at("failed"), 2);
        QCOMPARE(p->windowS, 1234.5);                           // duration_ns
        QCOMPARE(p->metrics.tpotMlperfMs.n, std::size_t(4386)); // histogram counts 1096 + 2193 + 1097
        QCOMPARE(p->metrics.tpotMlperfMs.p[1], 27.1236);        // "90.0": 27123600 ns
        QCOMPARE(p->metrics.ttftMs.p[3], 441.98073);            // "99.0" (n >= 1,000)
        QVERIFY(std::isnan(p->metrics.ttftMs.p[4])); // "99.9" at n = 4386: below the minimum-n rule, n/a
        QCOMPARE(p->metrics.outputTpsMlperf, 4386 * 1000 / 1234.5); // tps
        QCOMPARE(detail->points[0].aggregates["source"]["format"].get<std::string>(),
                 std::string("mlperf-endpoints"));
        QCOMPARE(detail->summary.source, std::string("mlperf-endpoints"));
    }

    void errorsNameTheFile()
    {
        QTemporaryDir tmp;
        const QString bad = tmp.filePath(QStringLiteral("result_summary.json"));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(
            R"({"n_samples_issued": 10, "n_samples_completed": 10, "duration_ns": 5, "tpot": {"total": "x"}})");
        f.close();
        const std::string db = tmp.filePath(QStringLiteral("h.sqlite")).toStdString();
        auto r = ResultImporter::importFile(bad.toStdString(), ResultImporter::Format::MlperfEndpoints, db);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.find(bad.toStdString() + ": tpot.total: expected a number") == 0,
                 r.error().message.c_str());
        QVERIFY(!ResultImporter::importFile(tmp.filePath(QStringLiteral("empty")).toStdString(),
                                            ResultImporter::Format::MlperfEndpoints, db)
                     .ok());
        QVERIFY(QDir(tmp.path()).mkdir(QStringLiteral("nothing")));
        auto none = ResultImporter::importFile(tmp.filePath(QStringLiteral("nothing")).toStdString(),
                                               ResultImporter::Format::Auto, db);
        QVERIFY(!none.ok());
        QVERIFY2(none.error().message.find("no result_summary.json") != std::string::npos,
                 none.error().message.c_str());
        QCOMPARE(ResultImporter::parseFormat("mlperf-endpoints").value(),
                 ResultImporter::Format::MlperfEndpoints);
    }
};

QTEST_GUILESS_MAIN(TestMlperfSummaryImport)
#include "tst_mlperfsummaryimport.moc"
