// Telemetry parse + ingest cost for a vLLM-sized exposition (not timed in CI).
// Usage: bench_telemetry [series=300] [scrapes=2000]
// Prints µs per parse and per ingest and the store's series count; the scraper's budget is one scrape per
// second per target, so anything below a few ms per scrape is irrelevant to the load.

#include "core/telemetry/metricnamemap.h"
#include "core/telemetry/prometheusparser.h"
#include "core/telemetry/telemetrystore.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace Throughline;

int main(int argc, char **argv)
{
    const int series = argc > 1 ? std::atoi(argv[1]) : 300;
    const int scrapes = argc > 2 ? std::atoi(argv[2]) : 2000;
    auto exposition = [&](int k) {
        std::string t;
        t += "# HELP vllm:time_to_first_token_seconds Histogram of time to first token in seconds.\n";
        t += "# TYPE vllm:time_to_first_token_seconds histogram\n";
        const char *les[] = {"0.001", "0.005", "0.01", "0.02", "0.04", "0.06", "0.08",
                             "0.1",   "0.25",  "0.5",  "0.75", "1.0",  "2.5",  "5.0",
                             "7.5",   "10.0",  "20.0", "40.0", "80.0", "+Inf"};
        int i = 0;
        for (const char *le : les)
            t += std::string("vllm:time_to_first_token_seconds_bucket{engine=\"0\",le=\"") + le +
                 "\",model_name=\"meta-llama/Llama-3.1-8B-Instruct\"} " + std::to_string(k * (++i)) + "\n";
        t += "vllm:time_to_first_token_seconds_sum{engine=\"0\",model_name=\"m\"} " +
             std::to_string(k * 0.3) + "\n";
        t += "vllm:time_to_first_token_seconds_count{engine=\"0\",model_name=\"m\"} " +
             std::to_string(k * 20) + "\n";
        t += "# TYPE vllm:generation_tokens_total "
             "counter\nvllm:generation_tokens_total{engine=\"0\",model_name=\"m\"} " +
             std::to_string(k * 1000) + "\n";
        for (int s = 0; s < series; ++s)
            t += "# TYPE other_metric_" + std::to_string(s) + " gauge\nother_metric_" + std::to_string(s) +
                 "{engine=\"0\",model_name=\"m\",kind=\"x\\\"y\"} " + std::to_string(s + k) + "\n";
        return t;
    };
    const std::string sample = exposition(1);
    TelemetryStore store;
    const int src = store.addSource("bench", "vllm", MetricNameMap::forBackend("vllm"));
    double parseUs = 0, ingestUs = 0;
    for (int k = 0; k < scrapes; ++k) {
        const std::string text = exposition(k + 1);
        const auto a = std::chrono::steady_clock::now();
        const ParsedExposition p = PrometheusParser::parse(text);
        const auto b = std::chrono::steady_clock::now();
        store.ingest(src, std::int64_t(k) * 1'000'000'000, p);
        const auto c = std::chrono::steady_clock::now();
        parseUs += std::chrono::duration<double, std::micro>(b - a).count();
        ingestUs += std::chrono::duration<double, std::micro>(c - b).count();
    }
    std::printf("exposition %zu bytes, %d scrapes: parse %.1f us/scrape, ingest %.1f us/scrape, %zu series\n",
                sample.size(), scrapes, parseUs / scrapes, ingestUs / scrapes, store.seriesCount());
    return 0;
}
