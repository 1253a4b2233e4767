// throughline-sim: the simulated OpenAI-compatible endpoint as a process. Parses flags, starts
// SimServer, prints "listening HOST:PORT" as the first stdout line (machine-readable, used by SimProcess),
// then the predicted capacity; SIGINT/SIGTERM stop it cleanly.
#include "core/sim/simserver.h"
#include "core/tokenizer/chattemplate.h"
#include "core/util/version.h"

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <sys/resource.h>

using namespace Throughline;

namespace {

void usage(std::FILE *out)
{
    std::fprintf(
        out,
        "Usage: throughline-sim --model NAME --gpu NAME [options]\n\n"
        "Simulated OpenAI-compatible inference endpoint (timing from an analytic model).\n\n"
        "  --model NAME            catalog model (e.g. gpt-oss-120b)\n"
        "  --gpu NAME              catalog GPU (H100, H200, B200, GB200, GB300)\n"
        "  --gpus N                GPUs of an aggregated deployment (default 1)\n"
        "  --prefill-gpus N --decode-gpus M   disaggregated prefill and decode pools\n"
        "  --precision P           BF16, FP8 or FP4 (default FP4 where the GPU has it, else FP8)\n"
        "  --host ADDR             listen address (default 127.0.0.1)\n"
        "  --port N                listen port (default 8000; 0 = any free port)\n"
        "  --time-scale S          > 1 runs faster than real time (default 1)\n"
        "  --jitter J              relative step-time jitter (default 0)\n"
        "  --seed N                seed of jitter, output lengths and faults (default 1)\n"
        "  --slowdown PCT          every step takes PCT %% longer (a slower deployment, for detection "
        "tests)\n"
        "  --slowdown-factor F     steps starting --slowdown-after-s S model seconds or more after start\n"
        "                          take F x as long (F >= 1; default 1 = off)\n"
        "  --slowdown-after-s S    when the slowdown factor starts (model seconds; default 0)\n"
        "  --slowdown-per-hour R   every step takes (1 + R x model hours since start) x as long (default 0)\n"
        "  --fixed-ttft-ms MS --fixed-itl-ms MS   fixed latency instead of the model (either > 0): the "
        "first\n"
        "                          token MS ms after a request arrives, each next one MS ms after it, at "
        "any\n"
        "                          load (model ms; a mock server as in vllm-bench's overhead protocol)\n"
        "  --faults SPEC           e.g. http500=0.01,disconnect=0.01,stall=0.01:5,slow_first_byte=0.02:1\n"
        "  --ground-truth FILE     JSONL log, one line per request (CLOCK_MONOTONIC ns)\n"
        "  --server-timing FORMAT  publish per-request timing as that server does: llamacpp, vllm, sglang,\n"
        "                          dynamo-nvext, dynamo-trace (needs --request-trace), trtllm-perf\n"
        "                          (GET /perf_metrics)\n"
        "  --server-clock-offset-ms MS  the server's timestamps run MS ahead of the true clock (default 0)\n"
        "  --server-clock-drift-ppm P   … and gain P µs per second (default 0)\n"
        "  --request-trace FILE    dynamo-trace: the JSONL file of request_end rows\n"
        "  --perf-metrics-max N    trtllm-perf: entries kept until fetched (default 1000; oldest dropped)\n"
        "  --tls-cert FILE --tls-key FILE   serve HTTPS\n"
        "  --served-model-name N   model id in responses (default: the catalog name)\n"
        "  --max-connections N     connections above it get 503 + Connection: close\n"
        "  --threads N             I/O threads (default 2)\n"
        "  --reasoning-content     stream reasoning as delta.reasoning_content\n"
        "  --legacy-metric-names   also export the old vLLM metric names\n"
        "  --not-ready-s S         cold start: answer 503 (except /metrics) for S seconds after start\n"
        "  --tokenizer T           prompt counting: auto (the model's tokenizer when fetched; default),\n"
        "                          none (bytes/4), a tokenizer name or a tokenizer.json / *.tiktoken path\n"
        "  --prefix-block N        prefix caching with blocks of N tokens (default 16; 0 = off)\n"
        "  --chat-template NAME    render chat prompts with this template instead of the model's own (a "
        "server\n"
        "                          that disagrees with the client): llama3.1, deepseek_v3, deepseek_r1,\n"
        "                          harmony, chatml, plain\n"
        "  --chat-template-date D  the template's date line: today or YYYY-MM-DD (default: the template's "
        "own)\n"
        "  --count-endpoints F     prompt-counting endpoints: vllm (POST /tokenize; default), llamacpp\n"
        "                          (POST /apply-template + /tokenize) or none\n"
        "  --version, --help\n");
}

bool toInt(const std::string &s, long long &out)
{
    char *end = nullptr;
    out = std::strtoll(s.c_str(), &end, 10);
    return !s.empty() && *end == '\0';
}

bool toDouble(const std::string &s, double &out)
{
    char *end = nullptr;
    out = std::strtod(s.c_str(), &end);
    return !s.empty() && *end == '\0';
}

} // namespace

int main(int argc, char **argv)
{
    std::string model, gpu, precision, host = "127.0.0.1", faults, groundTruth, cert, key, served;
    long long gpus = 1, port = 8000, prefillGpus = 0, decodeGpus = 0, seed = 1, maxConn = -1, threads = 2;
    double timeScale = 1, jitter = 0, notReadyS = 0, slowdownPct = 0;
    double slowdownFactor = 1, slowdownAfterS = 0, slowdownPerHour = 0;
    double fixedTtftMs = 0, fixedItlMs = 0;
    bool legacy = false, reasoningContent = false;
    std::string tokenizer = "auto", chatTemplate, chatTemplateDate, countEndpoints = "vllm";
    long long prefixBlock = 16;
    std::string serverTiming, requestTrace;
    double clockOffsetMs = 0, clockDriftPpm = 0;
    long long perfMax = 1000;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&](std::string &out) {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "throughline-sim: %s needs a value\n", a.c_str());
                std::exit(2);
            }
            out = argv[++i];
        };
        auto intValue = [&](long long &out) {
            std::string v;
            value(v);
            if (!toInt(v, out)) {
                std::fprintf(stderr, "throughline-sim: %s expects an integer, got \"%s\"\n", a.c_str(),
                             v.c_str());
                std::exit(2);
            }
        };
        auto numValue = [&](double &out) {
            std::string v;
            value(v);
            if (!toDouble(v, out)) {
                std::fprintf(stderr, "throughline-sim: %s expects a number, got \"%s\"\n", a.c_str(),
                             v.c_str());
                std::exit(2);
            }
        };
        if (a == "--help" || a == "-h") {
            usage(stdout);
            return 0;
        } else if (a == "--version") {
            std::printf("%s\n", versionLine().c_str());
            return 0;
        } else if (a == "--model")
            value(model);
        else if (a == "--gpu")
            value(gpu);
        else if (a == "--gpus")
            intValue(gpus);
        else if (a == "--prefill-gpus")
            intValue(prefillGpus);
        else if (a == "--decode-gpus")
            intValue(decodeGpus);
        else if (a == "--precision")
            value(precision);
        else if (a == "--host")
            value(host);
        else if (a == "--port")
            intValue(port);
        else if (a == "--time-scale")
            numValue(timeScale);
        else if (a == "--jitter")
            numValue(jitter);
        else if (a == "--slowdown")
            numValue(slowdownPct);
        else if (a == "--slowdown-factor")
            numValue(slowdownFactor);
        else if (a == "--slowdown-after-s")
            numValue(slowdownAfterS);
        else if (a == "--slowdown-per-hour")
            numValue(slowdownPerHour);
        else if (a == "--fixed-ttft-ms")
            numValue(fixedTtftMs);
        else if (a == "--fixed-itl-ms")
            numValue(fixedItlMs);
        else if (a == "--seed")
            intValue(seed);
        else if (a == "--faults")
            value(faults);
        else if (a == "--ground-truth")
            value(groundTruth);
        else if (a == "--server-timing")
            value(serverTiming);
        else if (a == "--server-clock-offset-ms")
            numValue(clockOffsetMs);
        else if (a == "--server-clock-drift-ppm")
            numValue(clockDriftPpm);
        else if (a == "--request-trace")
            value(requestTrace);
        else if (a == "--perf-metrics-max")
            intValue(perfMax);
        else if (a == "--tls-cert")
            value(cert);
        else if (a == "--tls-key")
            value(key);
        else if (a == "--served-model-name")
            value(served);
        else if (a == "--max-connections")
            intValue(maxConn);
        else if (a == "--threads")
            intValue(threads);
        else if (a == "--tokenizer")
            value(tokenizer);
        else if (a == "--chat-template")
            value(chatTemplate);
        else if (a == "--chat-template-date")
            value(chatTemplateDate);
        else if (a == "--count-endpoints")
            value(countEndpoints);
        else if (a == "--prefix-block")
            intValue(prefixBlock);
        else if (a == "--legacy-metric-names")
            legacy = true;
        else if (a == "--reasoning-content")
            reasoningContent = true;
        else if (a == "--not-ready-s")
            numValue(notReadyS);
        else {
            std::fprintf(stderr, "throughline-sim: unknown option \"%s\" (see --help)\n", a.c_str());
            return 2;
        }
    }
    if (model.empty() || gpu.empty()) {
        std::fprintf(stderr, "throughline-sim: --model and --gpu are required (see --help)\n");
        return 2;
    }
    if (timeScale <= 0 || jitter < 0 || slowdownPct < 0 || port < 0 || port > 65535 || threads < 1) {
        std::fprintf(stderr, "throughline-sim: --time-scale must be > 0, --jitter >= 0, --slowdown >= 0, "
                             "--port 0..65535, --threads >= 1\n");
        return 2;
    }
    // The campaign's bounds (campaignjsonendpoint.cpp); the negations also refuse nan.
    if (!(slowdownFactor >= 1 && slowdownFactor <= 1e3) || !(slowdownAfterS >= 0 && slowdownAfterS <= 1e9) ||
        !(slowdownPerHour >= 0 && slowdownPerHour <= 1e6)) {
        std::fprintf(stderr, "throughline-sim: --slowdown-factor must be 1..1000, --slowdown-after-s "
                             "0..1e9, --slowdown-per-hour 0..1e6\n");
        return 2;
    }
    if (!(fixedTtftMs >= 0 && fixedTtftMs <= 1e6) || !(fixedItlMs >= 0 && fixedItlMs <= 1e6)) {
        std::fprintf(stderr, "throughline-sim: --fixed-ttft-ms and --fixed-itl-ms must be 0..1e6\n");
        return 2;
    }
    if ((prefillGpus > 0) != (decodeGpus > 0)) {
        std::fprintf(stderr, "throughline-sim: --prefill-gpus and --decode-gpus go together\n");
        return 2;
    }
    auto opts = SimServer::optionsFromCatalog(model, gpu, int(gpus), precision.empty() ? "FP8" : precision);
    if (!opts) {
        std::fprintf(stderr, "throughline-sim: %s\n", opts.error().message.c_str());
        return 2;
    }
    if (precision.empty() && opts->gpu.fp4DenseTflops > 0)
        opts->precision = Precision::Fp4; // Blackwell default, as the published numbers
    auto f = FaultSpec::parse(faults);
    if (!f) {
        std::fprintf(stderr, "throughline-sim: --%s\n", f.error().message.c_str());
        return 2;
    }
    SimServerOptions o = std::move(*opts);
    o.prefillGpus = int(prefillGpus);
    o.decodeGpus = int(decodeGpus);
    o.timeScale = timeScale;
    o.jitter = jitter;
    o.slowdownPct = slowdownPct;
    o.slowdownFactor = slowdownFactor;
    o.slowdownAfterS = slowdownAfterS;
    o.slowdownPerHour = slowdownPerHour;
    o.fixedTtftMs = fixedTtftMs;
    o.fixedItlMs = fixedItlMs;
    o.notReadyS = std::max(0.0, notReadyS);
    o.seed = std::uint64_t(seed);
    o.faults = *f;
    o.groundTruthPath = groundTruth;
    o.serverTiming = serverTiming;
    o.serverClockOffsetMs = clockOffsetMs;
    o.serverClockDriftPpm = clockDriftPpm;
    o.requestTracePath = requestTrace;
    o.perfMetricsMaxRequests = int(std::clamp(perfMax, 1LL, 1LL << 24));
    o.tlsCertFile = cert;
    o.tlsKeyFile = key;
    o.servedModelName = served;
    o.threads = int(threads);
    o.legacyMetricNames = legacy;
    o.reasoningContentField = reasoningContent;
    o.tokenizer = tokenizer == "none" ? std::string() : tokenizer;
    o.prefixBlockTokens = int(std::clamp(prefixBlock, 0LL, 1LL << 20));
    if (!chatTemplate.empty() && !ChatTemplate::named(chatTemplate)) {
        std::fprintf(stderr, "throughline-sim: --chat-template \"%s\" is not one of %s\n",
                     chatTemplate.c_str(), ChatTemplate::knownNames().c_str());
        return 2;
    }
    if (!ChatTemplate::validDate(chatTemplateDate)) {
        std::fprintf(stderr,
                     "throughline-sim: --chat-template-date expects today or YYYY-MM-DD, got \"%s\"\n",
                     chatTemplateDate.c_str());
        return 2;
    }
    if (countEndpoints != "vllm" && countEndpoints != "llamacpp" && countEndpoints != "none") {
        std::fprintf(stderr,
                     "throughline-sim: --count-endpoints expects vllm, llamacpp or none, got \"%s\"\n",
                     countEndpoints.c_str());
        return 2;
    }
    o.chatTemplate = chatTemplate;
    o.chatTemplateDate = chatTemplateDate;
    o.countEndpoints = countEndpoints;
    if (maxConn > 0)
        o.limits.maxConnections = int(maxConn);

    // Many streams need many descriptors: raise the soft limit to the hard one.
    rlimit rl{};
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
    // Block the stop signals before any thread starts, then wait for them here.
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &set, nullptr);

    SimServer server(std::move(o));
    auto bound = server.start(host, int(port));
    if (!bound) {
        std::fprintf(stderr, "throughline-sim: %s\n", bound.error().message.c_str());
        return 3;
    }
    std::printf("listening %s:%d\n", host.c_str(), *bound);
    std::printf("url: %s://%s:%d/v1 (time scale %g)\n", server.tls() ? "https" : "http", host.c_str(), *bound,
                timeScale);
    std::printf("%s", server.capacitySummary().c_str());
    std::fflush(stdout);

    int sig = 0;
    sigwait(&set, &sig);
    std::fprintf(stderr, "throughline-sim: signal %d, stopping\n", sig);
    server.stop();
    return 0;
}
