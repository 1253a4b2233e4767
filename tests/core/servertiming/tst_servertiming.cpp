// Parsers of the per-request server-timing formats: every field of the real llama.cpp captures and of the
// documented shapes (tests/data/servertiming/README.md), the mapping into one ServerTiming, and the errors
// for malformed or missing timing (they name the request and the field; a fetched document keeps its good
// rows).

#include "core/servertiming/timingparsers.h"

#include <QFile>
#include <QTest>

#include <utility>
#include <vector>

using namespace Throughline;
using nlohmann::json;

namespace {

using Fields = std::vector<std::pair<std::string, double>>;

QByteArray readData(const char *name)
{
    QFile f(QStringLiteral(THROUGHLINE_TEST_DATA_DIR "/servertiming/") + QString::fromUtf8(name));
    if (!f.open(QIODevice::ReadOnly))
        qFatal("missing fixture %s", name);
    return f.readAll();
}

json readJson(const char *name)
{
    return json::parse(readData(name).toStdString());
}

// Every field the format published is read, with its value, and nothing else.
void compareFields(const ServerTiming &t, const Fields &expected)
{
    for (const auto &[name, value] : expected) {
        const double got = t.field(name);
        if (got != value)
            QFAIL(qPrintable(QStringLiteral("field %1: got %2, expected %3")
                                 .arg(QString::fromStdString(name))
                                 .arg(got, 0, 'g', 17)
                                 .arg(value, 0, 'g', 17)));
    }
    if (t.fields.size() != expected.size()) {
        QStringList names;
        for (const auto &f : t.fields)
            names << QString::fromStdString(f.first);
        QFAIL(qPrintable(QStringLiteral("%1 fields read, %2 expected: %3")
                             .arg(t.fields.size())
                             .arg(expected.size())
                             .arg(names.join(u", "))));
    }
}

// The last `data:` line of an SSE capture that carries `key`.
json lastChunkWith(const QByteArray &sse, const char *key)
{
    json found;
    for (const QByteArray &line : sse.split('\n')) {
        if (!line.startsWith("data: {"))
            continue;
        json j = json::parse(line.mid(6).toStdString(), nullptr, false);
        if (!j.is_discarded() && j.contains(key))
            found = std::move(j);
    }
    return found;
}

} // namespace

class TestServerTiming : public QObject
{
    Q_OBJECT

private slots:
    void formatTable();
    void llamaCppRealResponse();
    void llamaCppRealStreamFinalChunk();
    void vllmEveryField();
    void vllmNullFieldsAreUnknown();
    void sglangEveryField();
    void dynamoNvextEveryField();
    void dynamoTraceRows();
    void trtllmPerfMetricsEntries();
    void malformed_data();
    void malformed();
    void trtllmBadDocumentKeepsGoodEntries();
    void inlineBodiesOnePerLine();
};

void TestServerTiming::formatTable()
{
    const std::vector<TimingFormat> all = {TimingFormat::LlamaCpp,    TimingFormat::Vllm,
                                           TimingFormat::Sglang,      TimingFormat::DynamoNvext,
                                           TimingFormat::DynamoTrace, TimingFormat::TrtllmPerf};
    QCOMPARE(timingFormats().size(), all.size());
    for (TimingFormat f : all) {
        const TimingFormatInfo &info = timingFormatInfo(f);
        QCOMPARE(info.format, f);
        QCOMPARE(timingFormatByKey(info.key), &info);
    }
    QVERIFY(!timingFormatByKey("triton"));
    QCOMPARE(timingFormatInfo(TimingFormat::TrtllmPerf).join, TimingJoin::OrderAndTime);
    QCOMPARE(timingFormatInfo(TimingFormat::DynamoTrace).join, TimingJoin::ClientId);
    QCOMPARE(timingFormatInfo(TimingFormat::TrtllmPerf).clock, ServerClock::Steady);
}

void TestServerTiming::llamaCppRealResponse()
{
    const json body = readJson("llamacpp_issue_vllm40076_chat_completion_with_timings.json");
    const Result<ServerTiming> t = parseLlamaCppTimings(body, "r-1");
    QVERIFY2(t.ok(), t.ok() ? "" : t.error().message.c_str());
    compareFields(*t, {{"timings.cache_n", 60},
                       {"timings.prompt_n", 8},
                       {"timings.prompt_ms", 43.237},
                       {"timings.prompt_per_token_ms", 5.404625},
                       {"timings.prompt_per_second", 185.02671323172282},
                       {"timings.predicted_n", 25},
                       {"timings.predicted_ms", 238.74},
                       {"timings.predicted_per_token_ms", 9.5496},
                       {"timings.predicted_per_second", 104.71642791321104}});
    QCOMPARE(t->prefillMs, 43.237);
    QCOMPARE(t->decodeMs, 238.74);
    QCOMPARE(t->cachedTokens, 60);
    QCOMPARE(t->promptTokens, 68); // cache_n + prompt_n = usage.prompt_tokens
    QCOMPARE(t->outputTokens, 25);
    QCOMPARE(t->engineId, std::string("chatcmpl-VdRNmxUGjvC4qY7ffY3QkHqe4YGDpwTh"));
    QCOMPARE(t->clock, ServerClock::None);
    QVERIFY(!hasValue(t->queueMs)); // llama.cpp does not publish its slot wait
    QVERIFY(!hasValue(t->tArrival));
}

void TestServerTiming::llamaCppRealStreamFinalChunk()
{
    const json chunk = lastChunkWith(readData("llamacpp_80fb11a_chat_stream_include_usage.sse"), "timings");
    QVERIFY(chunk.is_object());
    const Result<ServerTiming> t = parseInlineTiming(TimingFormat::LlamaCpp, chunk, "r-2");
    QVERIFY(t.ok());
    compareFields(*t, {{"timings.cache_n", 0},
                       {"timings.prompt_n", 39},
                       {"timings.prompt_ms", 4.486},
                       {"timings.prompt_per_token_ms", 0.11502564102564102},
                       {"timings.prompt_per_second", 8693.7137761926},
                       {"timings.predicted_n", 6},
                       {"timings.predicted_ms", 14.015},
                       {"timings.predicted_per_token_ms", 2.803},
                       {"timings.predicted_per_second", 356.76061362825544}});
    QCOMPARE(t->promptTokens, 39);
    QCOMPARE(t->outputTokens, 6);
}

void TestServerTiming::vllmEveryField()
{
    const Result<ServerTiming> t = parseVllmMetrics(readJson("vllm_final_usage_chunk.json"), "r-3");
    QVERIFY2(t.ok(), t.ok() ? "" : t.error().message.c_str());
    const std::string o = "metrics.output_token_metrics.", s = "metrics.speculative_decoding.";
    compareFields(*t, {{"metrics.time_to_first_token_ms", 41.5},
                       {"metrics.generation_time_ms", 1990.25},
                       {"metrics.queue_time_ms", 3.75},
                       {"metrics.mean_itl_ms", 10.001256},
                       {"metrics.tokens_per_second", 98.45},
                       {o + "reasoning.token_count", 120},
                       {o + "reasoning.time_to_first_token_ms", 41.5},
                       {o + "reasoning.generation_time_ms", 1190.5},
                       {o + "reasoning.mean_itl_ms", 10.004},
                       {o + "reasoning.tokens_per_second", 97.4},
                       {o + "content.token_count", 79},
                       {o + "content.time_to_first_token_ms", 1242.0},
                       {o + "content.generation_time_ms", 780.0},
                       {o + "content.mean_itl_ms", 10.0},
                       {o + "content.tokens_per_second", 99.1},
                       {o + "unclassified_token_count", 1},
                       {s + "mean_acceptance_length", 2.5},
                       {s + "draft_acceptance_rate", 0.75},
                       {s + "num_spec_steps", 80},
                       {s + "num_accepted_draft_tokens", 120},
                       {s + "num_draft_tokens", 160},
                       {s + "num_spec_tokens", 2},
                       {s + "acceptance_histogram[0]", 10},
                       {s + "acceptance_histogram[1]", 20},
                       {s + "acceptance_histogram[2]", 30},
                       {"usage.prompt_tokens", 1000},
                       {"usage.completion_tokens", 200},
                       {"usage.prompt_tokens_details.cached_tokens", 64}});
    // time_to_first_token_ms starts at scheduling: it is the prefill, the queue is separate.
    QCOMPARE(t->queueMs, 3.75);
    QCOMPARE(t->prefillMs, 41.5);
    QCOMPARE(t->decodeMs, 1990.25);
    QCOMPARE(t->outputTokens, 200);
    QCOMPARE(t->cachedTokens, 64);
    QCOMPARE(t->engineId, std::string("chatcmpl-7a1"));
}

void TestServerTiming::vllmNullFieldsAreUnknown()
{
    const json body = json::parse(R"({"metrics":{"time_to_first_token_ms":12.0,"generation_time_ms":null,
        "queue_time_ms":null,"mean_itl_ms":null,"tokens_per_second":null}})");
    const Result<ServerTiming> t = parseVllmMetrics(body, "r-4");
    QVERIFY(t.ok());
    QCOMPARE(t->prefillMs, 12.0);
    QVERIFY(!hasValue(t->decodeMs)); // a 1-token output: null, never 0
    QVERIFY(!hasValue(t->queueMs));
    QCOMPARE(t->fields.size(), size_t(1));
}

void TestServerTiming::sglangEveryField()
{
    const Result<ServerTiming> t = parseSglangMetaInfo(readJson("sglang_generate_meta_info.json"), "r-5");
    QVERIFY2(t.ok(), t.ok() ? "" : t.error().message.c_str());
    const std::string m = "meta_info.";
    compareFields(*t, {{m + "prompt_tokens", 512},
                       {m + "completion_tokens", 128},
                       {m + "cached_tokens", 256},
                       {m + "request_received_ts", 1796000000.125},
                       {m + "request_sent_to_scheduler_ts", 1796000000.127},
                       {m + "prefill_finished_ts", 1796000000.180},
                       {m + "response_sent_to_client_ts", 1796000000.1815},
                       {m + "decode_finished_ts", 1796000001.460},
                       {m + "e2e_latency", 1.335},
                       {m + "inference_time", 1.331},
                       {m + "decode_throughput", 99.2},
                       {m + "queue_time", 0.0105},
                       {m + "prefill_launch_latency", 0.0012},
                       {m + "spec_accept_rate", 0.6},
                       {m + "spec_accept_length", 2.2},
                       {m + "spec_accept_token_num", 70},
                       {m + "spec_draft_token_num", 116},
                       {m + "spec_verify_ct", 58},
                       {m + "pd_bootstrap_duration", 0.002},
                       {m + "pd_transfer_duration", 0.0045}});
    QCOMPARE(t->clock, ServerClock::Epoch);
    QCOMPARE(t->engineId, std::string("a5e1c3"));
    QCOMPARE(t->tArrival, 1796000000.125);
    QCOMPARE(t->tEngineQueued, 1796000000.127);
    QCOMPARE(t->tFirstToken, 1796000000.180);
    QCOMPARE(t->tFirstSent, 1796000000.1815);
    QCOMPARE(t->tLastToken, 1796000001.460);
    QCOMPARE(t->queueMs, 10.5);
    QCOMPARE(t->totalMs, 1335.0);
    QCOMPARE(t->promptTokens, 512);
    QCOMPARE(t->cachedTokens, 256);
}

void TestServerTiming::dynamoNvextEveryField()
{
    const Result<ServerTiming> t = parseDynamoNvextTiming(readJson("dynamo_nvext_final_chunk.json"), "r-6");
    QVERIFY2(t.ok(), t.ok() ? "" : t.error().message.c_str());
    const std::string n = "nvext.timing.";
    compareFields(*t, {{n + "request_received_ms", 1796000000125.0},
                       {n + "prefill_wait_time_ms", 12.5},
                       {n + "prefill_time_ms", 410.25},
                       {n + "ttft_ms", 424.0},
                       {n + "total_time_ms", 10660.5},
                       {n + "kv_hit_rate", 0.25},
                       {n + "prefill_worker_id", 7},
                       {n + "prefill_dp_rank", 1},
                       {n + "decode_worker_id", 9},
                       {n + "decode_dp_rank", 3},
                       {"usage.prompt_tokens", 8150},
                       {"usage.completion_tokens", 1024}});
    QCOMPARE(t->tArrival, 1796000000.125);
    QCOMPARE(t->queueMs, 12.5);
    QCOMPARE(t->prefillMs, 410.25);
    QCOMPARE(t->decodeMs, 10660.5 - 424.0);
    QCOMPARE(t->tFirstToken, 1796000000.125 + 0.424);
    QCOMPARE(t->outputTokens, 1024);
}

void TestServerTiming::dynamoTraceRows()
{
    const TimingBatch b = parseDynamoTrace(readData("dynamo_request_trace.jsonl").toStdString());
    QCOMPARE(b.timings.size(), size_t(2)); // the tool_start row and the blank line are skipped
    QCOMPARE(b.problems.size(), size_t(1));
    QCOMPARE(
        QString::fromStdString(b.problems[0].message),
        u"request run-8: Dynamo request trace field `request.request_received_ms`: expected a number, got "
        u"a string"_qs);

    const ServerTiming &a = b.timings[0];
    const std::string r = "request.";
    compareFields(a, {{"event_time_unix_ms", 1796000010800.0},
                      {r + "input_tokens", 1000},
                      {r + "output_tokens", 200},
                      {r + "cached_tokens", 64},
                      {r + "request_received_ms", 1796000010000.0},
                      {r + "prefill_wait_time_ms", 2.5},
                      {r + "prefill_time_ms", 60.5},
                      {r + "ttft_ms", 64.0},
                      {r + "total_time_ms", 800.0},
                      {r + "avg_itl_ms", 3.698},
                      {r + "kv_hit_rate", 0.064},
                      {r + "queue_depth", 3},
                      {r + "worker.prefill_worker_id", 4},
                      {r + "worker.decode_worker_id", 4},
                      {r + "finish_reason_metadata.tool_calls", 0},
                      {r + "replay.trace_block_size", 64},
                      {r + "replay.input_length", 1000},
                      {r + "replay.input_sequence_hashes", 3}});
    QCOMPARE(a.clientId, std::string("caller-request-id")); // the join key
    QCOMPARE(a.engineId, std::string("dyn-1"));
    QVERIFY(!hasValue(a.kvTransferMs));
    QCOMPARE(a.decodeMs, 800.0 - 64.0);

    const ServerTiming &d = b.timings[1]; // srt-slurm wrapper, disaggregated
    compareFields(d, {{"event_time_unix_ms", 1796000021500.0},
                      {r + "input_tokens", 8150},
                      {r + "output_tokens", 1024},
                      {r + "cached_tokens", 0},
                      {r + "request_received_ms", 1796000020000.0},
                      {r + "prefill_wait_time_ms", 8.0},
                      {r + "prefill_time_ms", 380.0},
                      {r + "ttft_ms", 390.0},
                      {r + "total_time_ms", 1450.0},
                      {r + "avg_itl_ms", 1.03},
                      {r + "kv_hit_rate", 0.0},
                      {r + "kv_transfer_estimated_latency_ms", 21.5},
                      {r + "queue_depth", 0},
                      {r + "worker.prefill_worker_id", 1},
                      {r + "worker.prefill_dp_rank", 0},
                      {r + "worker.decode_worker_id", 30},
                      {r + "worker.decode_dp_rank", 2},
                      {r + "finish_reason_metadata.tool_calls", 1},
                      {r + "replay.trace_block_size", 64},
                      {r + "replay.input_length", 8150},
                      {r + "replay.input_sequence_hashes", 2}});
    QCOMPARE(d.clientId, std::string("run-7"));
    QCOMPARE(d.kvTransferMs, 21.5);
    // ttft_ms is the prefill worker's first token; the transfer follows it, decode follows the transfer.
    QCOMPARE(d.tKvStart, 1796000020.390);
    QCOMPARE(d.tKvEnd, 1796000020.390 + 0.0215);
    QVERIFY(qAbs(d.decodeMs - (1450.0 - 390.0 - 21.5)) < 1e-6);
}

void TestServerTiming::trtllmPerfMetricsEntries()
{
    const TimingBatch b = parseTrtllmPerfMetrics(readData("trtllm_perf_metrics.json").toStdString());
    QCOMPARE(b.problems.size(), size_t(0));
    QCOMPARE(b.timings.size(), size_t(2));
    const std::string p = "perf_metrics.", tm = "perf_metrics.timing_metrics.",
                      kv = "perf_metrics.kv_cache_metrics.";
    const ServerTiming &a = b.timings[0];
    compareFields(a, {{p + "first_iter", 10},
                      {p + "last_iter", 140},
                      {tm + "server_arrival_time", 5021.5},
                      {tm + "arrival_time", 5021.5012},
                      {tm + "first_scheduled_time", 5021.504},
                      {tm + "first_token_time", 5021.561},
                      {tm + "server_first_token_time", 5021.5616},
                      {tm + "last_token_time", 5022.861},
                      {kv + "num_total_allocated_blocks", 40},
                      {kv + "num_new_allocated_blocks", 36},
                      {kv + "num_reused_blocks", 4},
                      {kv + "num_missed_blocks", 36}});
    QCOMPARE(a.engineId, std::string("3"));
    QVERIFY(a.clientId.empty()); // engine ids only: joined by order and time
    QCOMPARE(a.clock, ServerClock::Steady);
    QCOMPARE(a.tArrival, 5021.5);
    QCOMPARE(a.tEngineQueued, 5021.5012);
    QCOMPARE(a.tScheduled, 5021.504);
    QCOMPARE(a.tFirstToken, 5021.561);
    QCOMPARE(a.tFirstSent, 5021.5616);
    QCOMPARE(a.tLastToken, 5022.861);
    QVERIFY(!hasValue(a.tKvStart));

    const ServerTiming &d = b.timings[1];
    compareFields(d, {{"ctx_request_id", 104},
                      {p + "first_iter", 11},
                      {p + "last_iter", 1035},
                      {tm + "server_arrival_time", 5030.0},
                      {tm + "arrival_time", 5030.002},
                      {tm + "first_scheduled_time", 5030.01},
                      {tm + "first_token_time", 5030.41},
                      {tm + "server_first_token_time", 5030.439},
                      {tm + "last_token_time", 5031.5},
                      {tm + "kv_cache_size", 1048576},
                      {tm + "kv_cache_transfer_start", 5030.412},
                      {tm + "kv_cache_transfer_end", 5030.433},
                      {kv + "num_total_allocated_blocks", 128},
                      {kv + "num_new_allocated_blocks", 128},
                      {kv + "num_reused_blocks", 0},
                      {kv + "num_missed_blocks", 128},
                      {p + "speculative_decoding.acceptance_rate", 0.7},
                      {p + "speculative_decoding.total_accepted_draft_tokens", 350},
                      {p + "speculative_decoding.total_draft_tokens", 500}});
    QCOMPARE(d.tKvStart, 5030.412);
    QCOMPARE(d.tKvEnd, 5030.433);
}

void TestServerTiming::malformed_data()
{
    QTest::addColumn<QString>("format");
    QTest::addColumn<QString>("body");
    QTest::addColumn<QString>("message");
    const QString llama = u"request r9: llama.cpp timings field "_qs;
    QTest::newRow("llama no timings")
        << u"llamacpp"_qs << u"{\"id\":\"x\",\"choices\":[]}"_qs
        << llama + u"`timings`: missing (llama-server puts it on the final chunk)"_qs;
    QTest::newRow("llama timings null")
        << u"llamacpp"_qs << u"{\"timings\":null}"_qs
        << llama + u"`timings`: null (llama-server puts it on the final chunk)"_qs;
    QTest::newRow("llama timings array") << u"llamacpp"_qs << u"{\"timings\":[1]}"_qs
                                         << llama + u"`timings`: expected an object, got an array"_qs;
    QTest::newRow("llama prompt_ms string")
        << u"llamacpp"_qs
        << u"{\"timings\":{\"prompt_n\":3,\"prompt_ms\":\"4.5\",\"predicted_n\":2,\"predicted_ms\":9}}"_qs
        << llama + u"`timings.prompt_ms`: expected a number, got a string"_qs;
    QTest::newRow("llama predicted_ms missing")
        << u"llamacpp"_qs << u"{\"timings\":{\"prompt_n\":3,\"prompt_ms\":4.5,\"predicted_n\":2}}"_qs
        << llama + u"`timings.predicted_ms`: missing"_qs;
    QTest::newRow("llama negative")
        << u"llamacpp"_qs
        << u"{\"timings\":{\"prompt_n\":3,\"prompt_ms\":-4.5,\"predicted_n\":2,\"predicted_ms\":9}}"_qs
        << llama + u"`timings.prompt_ms`: out of range (-4.5)"_qs;
    QTest::newRow("llama fractional count")
        << u"llamacpp"_qs
        << u"{\"timings\":{\"prompt_n\":3.5,\"prompt_ms\":4.5,\"predicted_n\":2,\"predicted_ms\":9}}"_qs
        << llama + u"`timings.prompt_n`: expected a whole count, got 3.500000"_qs;
    QTest::newRow("not an object")
        << u"llamacpp"_qs << u"[1,2]"_qs
        << u"request r9: llama.cpp timings: the response is an array, not an object"_qs;
    QTest::newRow("vllm missing") << u"vllm"_qs << u"{\"choices\":[]}"_qs
                                  << u"request r9: vLLM metrics field `metrics`: missing (needs "
                                     u"--enable-per-request-metrics; null when n > 1 "
                                     u"or for several prompts)"_qs;
    QTest::newRow("vllm null") << u"vllm"_qs << u"{\"metrics\":null}"_qs
                               << u"request r9: vLLM metrics field `metrics`: null (needs "
                                  u"--enable-per-request-metrics; null when n > 1 or "
                                  u"for several prompts)"_qs;
    QTest::newRow("vllm queue bool")
        << u"vllm"_qs << u"{\"metrics\":{\"queue_time_ms\":true}}"_qs
        << u"request r9: vLLM metrics field `metrics.queue_time_ms`: expected a number, "
           u"got a boolean"_qs;
    QTest::newRow("vllm histogram entry")
        << u"vllm"_qs << u"{\"metrics\":{\"speculative_decoding\":{\"acceptance_histogram\":[1,\"a\"]}}}"_qs
        << u"request r9: vLLM metrics field `metrics.speculative_decoding.acceptance_histogram[1]`: expected "
           u"a "
           u"number, got a string"_qs;
    QTest::newRow("sglang no received")
        << u"sglang"_qs << u"{\"meta_info\":{\"id\":\"a\",\"e2e_latency\":1.0}}"_qs
        << u"request r9: SGLang meta_info field `meta_info.request_received_ts`: missing"_qs;
    QTest::newRow("sglang time order")
        << u"sglang"_qs << u"{\"meta_info\":{\"request_received_ts\":100.0,\"decode_finished_ts\":99.0}}"_qs
        << u"request r9: SGLang meta_info field `meta_info`: a timestamp lies before request_received_ts"_qs;
    QTest::newRow("dynamo no nvext")
        << u"dynamo-nvext"_qs << u"{\"choices\":[]}"_qs
        << u"request r9: Dynamo nvext.timing field `nvext`: missing (ask with nvext.extra_fields: [\"timing\"])"_qs;
    QTest::newRow("dynamo no timing") << u"dynamo-nvext"_qs << u"{\"nvext\":{}}"_qs
                                      << u"request r9: Dynamo nvext.timing field `nvext.timing`: missing"_qs;
    QTest::newRow("dynamo total < ttft")
        << u"dynamo-nvext"_qs
        << u"{\"nvext\":{\"timing\":{\"request_received_ms\":1000,\"ttft_ms\":50,\"total_time_ms\":40}}}"_qs
        << u"request r9: Dynamo nvext.timing field `nvext.timing.total_time_ms`: smaller than ttft_ms"_qs;
}

void TestServerTiming::malformed()
{
    QFETCH(QString, format);
    QFETCH(QString, body);
    QFETCH(QString, message);
    const TimingFormatInfo *f = timingFormatByKey(format.toStdString());
    QVERIFY(f);
    const Result<ServerTiming> t = parseInlineTiming(f->format, json::parse(body.toStdString()), "r9");
    QVERIFY(!t.ok());
    QCOMPARE(t.error().code, ErrorCode::InvalidInput);
    QCOMPARE(QString::fromStdString(t.error().message), message);
}

void TestServerTiming::trtllmBadDocumentKeepsGoodEntries()
{
    TimingBatch b = parseTrtllmPerfMetrics("{\"not\":\"a list\"}");
    QCOMPARE(b.problems.size(), size_t(1));
    QCOMPARE(QString::fromStdString(b.problems[0].message),
             u"TensorRT-LLM perf_metrics: the /perf_metrics answer is not a JSON list"_qs);
    b = parseTrtllmPerfMetrics(
        R"([{"request_id":5,"perf_metrics":{"timing_metrics":{"first_token_time":2.0}}},
        {"request_id":6,"perf_metrics":{"timing_metrics":{"arrival_time":1.0,"first_scheduled_time":0.5}}},
        {"request_id":7,"perf_metrics":{"timing_metrics":{"arrival_time":1.0,"kv_cache_transfer_start":1.5}}},
        {"request_id":8,"perf_metrics":{"timing_metrics":{"arrival_time":1.0,"first_token_time":1.2}}}, 3])");
    QCOMPARE(b.timings.size(), size_t(1));
    QCOMPARE(b.timings[0].engineId, std::string("8"));
    QCOMPARE(b.problems.size(), size_t(4));
    QCOMPARE(
        QString::fromStdString(b.problems[0].message),
        u"request (engine id) 5: TensorRT-LLM perf_metrics field `perf_metrics.timing_metrics.arrival_time`: "
        u"missing"_qs);
    QCOMPARE(QString::fromStdString(b.problems[1].message),
             u"request (engine id) 6: TensorRT-LLM perf_metrics field "
             u"`perf_metrics.timing_metrics.first_scheduled_"
             u"time`: before arrival_time"_qs);
    QCOMPARE(QString::fromStdString(b.problems[2].message),
             u"request (engine id) 7: TensorRT-LLM perf_metrics field "
             u"`perf_metrics.timing_metrics.kv_cache_transfer_"
             u"end`: missing while its pair is present"_qs);
    QCOMPARE(QString::fromStdString(b.problems[3].message),
             u"request at index 4: TensorRT-LLM perf_metrics: not a JSON object"_qs);
}

void TestServerTiming::inlineBodiesOnePerLine()
{
    const std::string text = "{\"id\":\"a\",\"timings\":{\"prompt_n\":1,\"prompt_ms\":2,\"predicted_n\":3,"
                             "\"predicted_ms\":4}}\n\nnot json\n{\"id\":\"c\"}\n";
    const TimingBatch b = parseFetchedTiming(TimingFormat::LlamaCpp, text);
    QCOMPARE(b.timings.size(), size_t(1));
    QCOMPARE(b.problems.size(), size_t(2));
    QCOMPARE(QString::fromStdString(b.problems[0].message),
             u"request on line 3: llama.cpp timings: not JSON"_qs);
    QVERIFY(QString::fromStdString(b.problems[1].message)
                .startsWith(u"request c: llama.cpp timings field `timings`"));
}

QTEST_GUILESS_MAIN(TestServerTiming)
#include "tst_servertiming.moc"
