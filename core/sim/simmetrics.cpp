#include "core/sim/simmetrics.h"

#include <cstdio>

namespace Throughline {

void SimMetrics::Histogram::add(double v, std::int64_t count)
{
    size_t i = 0;
    while (i < bounds.size() && v > bounds[i])
        ++i;
    counts[i] += count;
    sum += v * double(count);
    n += count;
}

void SimMetrics::addItl(double gapS, int count)
{
    std::lock_guard lk(m_mu);
    m_itl.add(gapS, count);
}

void SimMetrics::Histogram::render(std::string &out, const std::string &name, const std::string &labels) const
{
    char buf[256];
    out += "# TYPE " + name + " histogram\n";
    std::int64_t cum = 0;
    for (size_t i = 0; i < bounds.size(); ++i) {
        cum += counts[i];
        std::snprintf(buf, sizeof buf, "%s_bucket{%s,le=\"%g\"} %lld\n", name.c_str(), labels.c_str(),
                      bounds[i], (long long)cum);
        out += buf;
    }
    cum += counts.back();
    std::snprintf(buf, sizeof buf, "%s_bucket{%s,le=\"+Inf\"} %lld\n%s_sum{%s} %.9g\n%s_count{%s} %lld\n",
                  name.c_str(), labels.c_str(), (long long)cum, name.c_str(), labels.c_str(), sum,
                  name.c_str(), labels.c_str(), (long long)n);
    out += buf;
}

void SimMetrics::addRequest(int promptTokens, int outputTokens, double ttftS, const std::vector<double> &itlS,
                            double e2eS, const std::string &finishReason)
{
    std::lock_guard lk(m_mu);
    m_totals.requests += 1;
    m_totals.promptTokens += promptTokens;
    m_totals.generationTokens += outputTokens;
    if (ttftS >= 0)
        m_ttft.add(ttftS);
    for (double v : itlS)
        m_itl.add(v);
    if (e2eS >= 0)
        m_e2e.add(e2eS);
    if (finishReason == "length")
        ++m_finishedLength;
    else if (finishReason == "stop")
        ++m_finishedStop;
    else
        ++m_finishedAbort;
}

SimMetrics::Totals SimMetrics::totals() const
{
    std::lock_guard lk(m_mu);
    return m_totals;
}

std::string SimMetrics::render(const SchedulerGauges &g, const std::string &modelName, bool legacyNames) const
{
    std::lock_guard lk(m_mu);
    const std::string labels = "model_name=\"" + modelName + "\"";
    std::string out;
    out.reserve(8192);
    char buf[512];
    auto gauge = [&](const char *name, double v) {
        std::snprintf(buf, sizeof buf, "# TYPE %s gauge\n%s{%s} %.9g\n", name, name, labels.c_str(), v);
        out += buf;
    };
    auto counter = [&](const char *name, double v, const std::string &extra = {}) {
        std::snprintf(buf, sizeof buf, "%s{%s%s} %.17g\n", name, labels.c_str(), extra.c_str(), v);
        out += buf;
    };
    gauge("vllm:num_requests_running", g.running);
    gauge("vllm:num_requests_waiting", g.waiting);
    gauge("vllm:kv_cache_usage_perc", g.kvUsage);
    out += "# TYPE vllm:prompt_tokens_total counter\n";
    counter("vllm:prompt_tokens_total", double(m_totals.promptTokens));
    out += "# TYPE vllm:generation_tokens_total counter\n";
    counter("vllm:generation_tokens_total", double(m_totals.generationTokens));
    out += "# TYPE vllm:request_success_total counter\n";
    counter("vllm:request_success_total", double(m_finishedLength), ",finished_reason=\"length\"");
    counter("vllm:request_success_total", double(m_finishedStop), ",finished_reason=\"stop\"");
    counter("vllm:request_success_total", double(m_finishedAbort), ",finished_reason=\"abort\"");
    m_ttft.render(out, "vllm:time_to_first_token_seconds", labels);
    m_itl.render(out, "vllm:inter_token_latency_seconds", labels);
    m_e2e.render(out, "vllm:e2e_request_latency_seconds", labels);
    if (legacyNames) {
        gauge("vllm:gpu_cache_usage_perc", g.kvUsage);
        m_itl.render(out, "vllm:time_per_output_token_seconds", labels);
    }
    return out;
}

} // namespace Throughline
