#include "ui/report/metrictexts.h"

#include <QCoreApplication>

#include <algorithm>
#include <iterator>

namespace Throughline {

namespace {

// Every label, unit, definition and stat meaning of resources/catalog/metric_definitions.json, verbatim
// (the catalogue stays the one place that defines them; these are its translation sources).
constexpr const char *kTexts[] = {
    QT_TRANSLATE_NOOP("Throughline::MetricTexts", "Output throughput"),
    QT_TRANSLATE_NOOP("Throughline::MetricTexts", "tokens/s"),
    QT_TRANSLATE_NOOP("Throughline::MetricTexts",
                      "Output tokens of content events timestamped inside the measurement window [W0, W1], "
                      "from any request (warm-up included), divided by the window length (steady state)."),
    QT_TRANSLATE_NOOP("Throughline::MetricTexts", "Output tokens/s per GPU"),
    QT_TRANSLATE_NOOP("Throughline::MetricTexts", "tokens/s/GPU"),
    QT_TRANSLATE_NOOP(
        "Throughline::MetricTexts",
        "output_tps divided by all GPUs of the deployment, replicas included (NVIDIA's headline metric)."),
    QT_TRANSLATE_NOOP("Throughline::MetricTexts", "Output tokens/s per decode GPU"),
    QT_TRANSLATE_NOOP("Throughline::MetricTexts",
                      "output_tps divided by the decode GPUs of a disaggregated deployment (all GPUs "
                      "otherwise); InferenceX output_tput_per_gpu."),
    QT_TRANSLATE_NOOP("Throughline::MetricTexts", "Total tokens/s per GPU"),
    QT_TRANSLATE_NOOP("Throughline::MetricTexts",
                      "(input + output) tokens/s over all GPUs; input tokens are the prompt tokens of "
                      "successful measured requests; InferenceX tput_per_gpu."),
    QT_TRANSLATE_NOOP("Throughline::MetricTexts", "Request rate"),
    QT_TRANSLATE_NOOP("Throughline::MetricTexts", "requests/s"),
    QT_TRANSLATE_NOOP("Throughline::MetricTexts",
                      "Successful measured requests divided by the window length."),
    QT_TRANSLATE_NOOP("Throughline::MetricTexts", "Goodput"),
    QT_TRANSLATE_NOOP("Throughline::MetricTexts",
                      "Successful measured requests that met every SLO of the scenario (TTFT, TPOT, E2E), "
                      "divided by the window length."),
    QT_TRANSLATE_NOOP("Throughline::MetricTexts", "Output throughput (whole run, vLLM/AIPerf)"),
    QT_TRANSLATE_NOOP("Throughline::MetricTexts",
                      "Sum of N_out of successful measured requests divided by (last t_end - first t_send): "
                      "the vLLM bench serve / AIPerf definition."),
    QT_TRANSLATE_NOOP("Throughline::MetricTexts", "Output throughput (MLPerf)"),
    QT_TRANSLATE_NOOP("Throughline::MetricTexts",
                      "Tokenizer-counted N_out of successful requests issued in [W0, W1) divided by the "
                      "window length (MLPerf Endpoints style)."),
    QT_TRANSLATE_NOOP("Throughline::MetricTexts", "Input tokens/s per prefill GPU"),
    QT_TRANSLATE_NOOP(
        "Throughline::MetricTexts",
        "Input tokens/s divided by the prefill GPUs of a disaggregated deployment (all GPUs otherwise)."),
    QT_TRANSLATE_NOOP("Throughline::MetricTexts", "Token goodput"),
    QT_TRANSLATE_NOOP("Throughline::MetricTexts",
                      "Output tokens of the requests that met every SLO, divided by the window length."),
    QT_TRANSLATE_NOOP("Throughline::MetricTexts", "TTFT"),
    QT_TRANSLATE_NOOP("Throughline::MetricTexts", "ms"),
    QT_TRANSLATE_NOOP("Throughline::MetricTexts", "Time to first token: time of the first content event "
                                                  "minus t_send (the worker hand-off); streaming only."),
    QT_TRANSLATE_NOOP("Throughline::MetricTexts", "TTFT incl. client queueing"),
    QT_TRANSLATE_NOOP("Throughline::MetricTexts", "Time of the first content event minus t_sched (intended "
                                                  "send time), so client-side queueing is included."),
    QT_TRANSLATE_NOOP("Throughline::MetricTexts", "TPOT"),
    QT_TRANSLATE_NOOP("Throughline::MetricTexts",
                      "Time per output token after the first: (t_last_token - t_first_token) / (N_out - "
                      "N_first); undefined (and counted) when N_out - N_first < 1."),
    QT_TRANSLATE_NOOP("Throughline::MetricTexts", "TPOT (MLPerf)"),
    QT_TRANSLATE_NOOP(
        "Throughline::MetricTexts",
        "(t_end - t_first_token) divided by the tokenizer-counted tokens after the first chunk."),
    QT_TRANSLATE_NOOP("Throughline::MetricTexts", "End-to-end latency"),
    QT_TRANSLATE_NOOP("Throughline::MetricTexts", "t_end (transfer done) minus t_send."),
    QT_TRANSLATE_NOOP("Throughline::MetricTexts", "Chunk gap"),
    QT_TRANSLATE_NOOP("Throughline::MetricTexts",
                      "Time between consecutive content events of a request, pooled over requests (vLLM "
                      "'ITL', AIPerf 'inter chunk latency')."),
    QT_TRANSLATE_NOOP("Throughline::MetricTexts", "Interactivity"),
    QT_TRANSLATE_NOOP("Throughline::MetricTexts", "tokens/s/user"),
    QT_TRANSLATE_NOOP("Throughline::MetricTexts",
                      "1000 / TPOT in ms: output tokens per second one user sees after the first token."),
    QT_TRANSLATE_NOOP("Throughline::MetricTexts", "50th percentile"),
    QT_TRANSLATE_NOOP("Throughline::MetricTexts", "90th percentile"),
    QT_TRANSLATE_NOOP("Throughline::MetricTexts", "95th percentile"),
    QT_TRANSLATE_NOOP("Throughline::MetricTexts", "99th percentile"),
    QT_TRANSLATE_NOOP("Throughline::MetricTexts", "99.9th percentile"),
    QT_TRANSLATE_NOOP("Throughline::MetricTexts", "arithmetic mean"),
    QT_TRANSLATE_NOOP("Throughline::MetricTexts", "minimum"),
    QT_TRANSLATE_NOOP("Throughline::MetricTexts", "maximum"),
    QT_TRANSLATE_NOOP("Throughline::MetricTexts", "population standard deviation"),
    QT_TRANSLATE_NOOP("Throughline::MetricTexts", "number of samples"),
};

} // namespace

bool MetricTexts::known(const std::string &english)
{
    return std::any_of(std::begin(kTexts), std::end(kTexts),
                       [&english](const char *t) { return english == t; });
}

QString MetricTexts::translate(const std::string &english)
{
    return QCoreApplication::translate("Throughline::MetricTexts", english.c_str());
}

} // namespace Throughline
