// Imports of every real sample under ../shared/data/samples/{vllm-bench,aiperf,genai-perf} (read in place),
// plus a malformed-import table: a file whose Nth record is corrupt leaves the database unchanged.
#include "core/metrics/pointresult.h"
#include "core/storage/historyreader.h"
#include "core/storage/resultimporter.h"
#include "core/storage/sqlitedb.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <set>

using namespace Throughline;

namespace {
const QString kSamples = QStringLiteral(THROUGHLINE_SHARED_DIR "/data/samples");
}

class TestResultImporter : public QObject
{
    Q_OBJECT
private slots:
    void everySampleIsCovered();
    void importSample_data();
    void importSample();
    void malformedImport_data();
    void malformedImport();
};

void TestResultImporter::importSample_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("points"); // -1: the import must fail
    QTest::addColumn<int>("requests");
    QTest::addColumn<QString>("errorText");
    auto row = [](const char *f, int points, int requests, const char *err = "") {
        QTest::newRow(f) << QString::fromUtf8(f) << points << requests << QString::fromUtf8(err);
    };
    row("vllm-bench/datacrunch_sglang_bench_serving_deepseek_inf_rate_Infinity.jsonl", 1, 0);
    row("vllm-bench/datacrunch_sglang_bench_serving_llama33_70b_online.jsonl", 7, 0);
    row("vllm-bench/inferencex_agg_processed_kimik25_vllm_mi355_conc64.json", 1, 0);
    row("vllm-bench/inferencex_benchmark_serving_gptoss120b_disagg_conc64_summary.json", 1, 0);
    row("vllm-bench/inferencex_benchmark_serving_qwen35_atom_conc64_with_lens.json", 1, 64);
    row("vllm-bench/nerdalert_llmd_vllm_save_result_multi_run.jsonl", 9, 0);
    row("vllm-bench/surajssd_llama33_70b_tp8_sharegpt_qps16.commands.json", -1, 0,
        ":1: a vLLM nightly-benchmark command file");
    row("vllm-bench/surajssd_vllm_detailed_llama33_70b_tp8_sharegpt_qps16.json", 1, 200);
    row("aiperf/inferencemax_rocm_kimik25_b200_vllm_conc16_mixed_errors_profile_export.jsonl", 1, 41);
    row("aiperf/inferencemax_rocm_kimik25_b200_vllm_conc16_mixed_errors_profile_export_aiperf.json", 1, 0);
    row("aiperf/inferencemax_rocm_kimik25_b200_vllm_conc16_mixed_errors_profile_export_aiperf.csv", 1, 0);
    row("aiperf/inferencemax_rocm_kimik25_b200_vllm_conc16_server_metrics_export.csv", -1, 0,
        ":7: an AIPerf server-metrics export");
    row("aiperf/wellflat_aiperf_gptoss20b_vllm_dcgm_telemetry_profile_export_aiperf.json", 1, 0);
    row("genai-perf/wellflat_genai_perf_gptoss20b_vllm_older_flat_config_profile_export_genai_perf.json", 1,
        0);
    row("genai-perf/wellflat_genai_perf_gptoss20b_vllm_with_gpu_telemetry_profile_export_genai_perf.json", 1,
        0);
}

void TestResultImporter::everySampleIsCovered()
{
    // The table above must list every sample file, so new samples cannot slip by untested.
    const QStringList files = {QStringLiteral("vllm-bench"), QStringLiteral("aiperf"),
                               QStringLiteral("genai-perf")};
    int n = 0;
    for (const QString &dir : files)
        n += static_cast<int>(QDir(kSamples + u'/' + dir).entryList(QDir::Files).size());
    QCOMPARE(n, 15); // importSample_data has 15 rows
}

void TestResultImporter::importSample()
{
    QFETCH(QString, file);
    QFETCH(int, points);
    QFETCH(int, requests);
    QFETCH(QString, errorText);
    QTemporaryDir dir;
    const std::string db = dir.filePath(QStringLiteral("h.sqlite")).toStdString();
    const std::string path = QString(kSamples + u'/' + file).toStdString();
    auto r = ResultImporter::importFile(path, ResultImporter::Format::Auto, db);
    if (points < 0) {
        QVERIFY2(!r, "import should fail");
        QVERIFY2(r.error().message.find(path) == 0, r.error().message.c_str());
        QVERIFY2(r.error().message.find(errorText.toStdString()) != std::string::npos,
                 r.error().message.c_str());
        return;
    }
    QVERIFY2(r, r ? "" : r.error().message.c_str());
    QCOMPARE(r->points, points);
    QCOMPARE(static_cast<int>(r->requests), requests);
    HistoryReader reader;
    QVERIFY(reader.open(db));
    auto detail = reader.runDetail(r->uuid);
    QVERIFY(detail);
    QCOMPARE(static_cast<int>(detail->points.size()), points);
    int stored = 0;
    for (const PointRow &p : detail->points) {
        QCOMPARE(p.status, std::string("completed"));
        QVERIFY(p.aggregates.contains("metrics"));
        stored += static_cast<int>(reader.requests(p.id)->size());
    }
    QCOMPARE(stored, requests);
    const auto &m0 = detail->points[0].aggregates["metrics"];
    if (file.contains(u"surajssd_vllm_detailed")) {
        QCOMPARE(m0["ttft_ms"]["mean"].get<double>(), 59.57789878501217);
        QCOMPARE(m0["ttft_ms"]["p99"].get<double>(), 120.3358004201981);
        auto ttft = reader.samples(detail->points[0].id, "ttft_ms");
        QCOMPARE(ttft->size(), 200u);
        QVERIFY(std::abs(ttft->front() - 31.09166) < 0.01); // ttfts[0] = 0.031091660999663873 s
        auto ev = reader.events(reader.requests(detail->points[0].id)->front().id);
        QVERIFY(ev && ev->size() > 1);
    }
    if (file.contains(u"Infinity"))
        QCOMPARE(detail->points[0].config["load"]["rate"].get<std::string>(), std::string("inf"));
    if (file.contains(u"agg_processed"))
        QCOMPARE(m0["ttft_ms"]["p90"].get<double>(), 3658.7272920412945);
    if (file.endsWith(u"profile_export.jsonl")) {
        auto rows = reader.requests(detail->points[0].id);
        int failed = 0;
        for (const RequestRow &q : *rows)
            failed += q.errorClass != 0;
        QCOMPARE(failed, 16);
        QCOMPARE(detail->points[0].aggregates["n_ok"].get<int>(), 25);
        // Derived from the per-request records: with intervals (95 %), but none for the per-GPU variants,
        // which the file cannot give (no GPU count).
        const auto &iv = detail->points[0].aggregates["intervals"];
        QCOMPARE(iv["level"].get<double>(), 0.95);
        // 25 successful requests at concurrency 16: TTFT's dependence reaches across most of the sample
        // and its p50 cannot be bounded at 95 % (both sides open, "not enough data"); TPOT's can.
        QCOMPARE(iv["metrics"]["ttft_ms"]["p50"]["method"].get<std::string>(),
                 std::string("order_statistic"));
        QVERIFY(iv["metrics"]["tpot_ms"]["p50"]["lower"].is_number());
        QVERIFY(iv["metrics"]["output_tps"]["value"]["upper"].is_number());
        QVERIFY(!iv["metrics"].contains("output_tps_per_gpu"));
        auto point = PointResult::fromJson(detail->points[0].aggregates);
        QVERIFY2(point.ok(), point.ok() ? "" : point.error().message.c_str());
        QVERIFY(point->metricInterval("ttft_ms", "p50"));
    }
    if (file.endsWith(u"_aiperf.csv"))
        QVERIFY(m0["ttft_ms"]["p50"].is_number());
}

void TestResultImporter::malformedImport_data()
{
    QTest::addColumn<QString>("source");
    QTest::addColumn<int>("lineToBreak"); // 1-based line replaced by `replacement`
    QTest::addColumn<QString>("replacement");
    QTest::addColumn<QString>("expected"); // in the error message
    QTest::newRow("jsonl 4th run truncated")
        << QStringLiteral("vllm-bench/nerdalert_llmd_vllm_save_result_multi_run.jsonl") << 4
        << QStringLiteral("{\"date\": \"2025\", \"backend\": \"vllm\", \"completed\": 3")
        << QStringLiteral(":4: malformed JSON");
    QTest::newRow("jsonl 6th record not a result")
        << QStringLiteral("vllm-bench/datacrunch_sglang_bench_serving_llama33_70b_online.jsonl") << 6
        << QStringLiteral("{\"hello\": 1}") << QStringLiteral(":6: not a vLLM bench serve result");
    QTest::newRow("aiperf 30th request without start")
        << QStringLiteral(
               "aiperf/inferencemax_rocm_kimik25_b200_vllm_conc16_mixed_errors_profile_export.jsonl")
        << 30 << QStringLiteral("{\"metadata\": {}, \"metrics\": {}}")
        << QStringLiteral(":30: not an AIPerf per-request record");
    QTest::newRow("aiperf 12th request bad chunk list")
        << QStringLiteral(
               "aiperf/inferencemax_rocm_kimik25_b200_vllm_conc16_mixed_errors_profile_export.jsonl")
        << 12
        << QStringLiteral("{\"metadata\": {\"request_start_ns\": 1780439073845099199}, \"metrics\": "
                          "{\"time_to_first_token\": {\"value\": 5, \"unit\": \"ms\"}, "
                          "\"inter_chunk_latency\": {\"value\": [1, \"x\"], \"unit\": \"ms\"}}}")
        << QStringLiteral(":12: inter_chunk_latency holds a non-number");
    QTest::newRow("aiperf csv 5th row bad number")
        << QStringLiteral(
               "aiperf/inferencemax_rocm_kimik25_b200_vllm_conc16_mixed_errors_profile_export_aiperf.csv")
        << 5 << QStringLiteral("Active Total Throughput (tokens/sec),abc,0,1,,,,,,0,,1,1,1,1")
        << QStringLiteral(":5: column 'avg' is not a number");
}

void TestResultImporter::malformedImport()
{
    QFETCH(QString, source);
    QFETCH(int, lineToBreak);
    QFETCH(QString, replacement);
    QFETCH(QString, expected);
    QTemporaryDir dir;
    const std::string db = dir.filePath(QStringLiteral("h.sqlite")).toStdString();
    // A database with one good import first: the failed import must leave it exactly as it was.
    auto good = ResultImporter::importFile(
        QString(kSamples + u"/vllm-bench/inferencex_benchmark_serving_qwen35_atom_conc64_with_lens.json")
            .toStdString(),
        ResultImporter::Format::Auto, db);
    QVERIFY(good);
    auto counts = [&] {
        SqliteDb c;
        (void)c.open(db, SqliteDb::Mode::ReadOnly);
        return std::vector<std::int64_t>{
            *c.queryInt("SELECT count(*) FROM runs"), *c.queryInt("SELECT count(*) FROM points"),
            *c.queryInt("SELECT count(*) FROM requests"), *c.queryInt("SELECT count(*) FROM campaigns")};
    };
    const auto before = counts();

    QFile in(kSamples + u'/' + source);
    QVERIFY(in.open(QIODevice::ReadOnly));
    QList<QByteArray> lines = in.readAll().split('\n');
    QVERIFY(lines.size() >= lineToBreak);
    lines[lineToBreak - 1] = replacement.toUtf8();
    const QString broken = dir.filePath(QFileInfo(source).fileName());
    QFile out(broken);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(lines.join('\n'));
    out.close();

    auto r = ResultImporter::importFile(broken.toStdString(), ResultImporter::Format::Auto, db);
    QVERIFY(!r);
    QVERIFY2(r.error().message.find(broken.toStdString() + expected.toStdString()) != std::string::npos,
             r.error().message.c_str());
    QCOMPARE(counts(), before);
}

QTEST_GUILESS_MAIN(TestResultImporter)
#include "tst_resultimporter.moc"
