#include <utility> // before any Boost include (Boost 1.74 Asio under C++20/GCC 12)

#include "core/sim/simserver.h"

#include "core/campaign/catalog.h"
#include "core/sim/simsession.h"
#include "core/tokenizer/tokenizerstore.h"

#include <boost/asio.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>

#include <nlohmann/json.hpp>

#include <pthread.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <mutex>
#include <optional>
#include <random>
#include <thread>
#include <vector>

namespace Throughline {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace ssl = net::ssl;
using tcp = net::ip::tcp;

using namespace SimDetail; // ServerCore, Session, the HTTP helpers (internal to this server)

struct SimServer::Impl {
    ServerCore core;
    std::unique_ptr<PerformanceModel> model;        // aggregated, or decode pool
    std::unique_ptr<PerformanceModel> prefillModel; // disaggregated only
    net::io_context ioc{1};
    std::optional<tcp::acceptor> acceptor;
    std::optional<ssl::context> sslCtx;
    std::vector<std::thread> threads;
    std::optional<net::executor_work_guard<net::io_context::executor_type>> work;
    int port = 0;
    bool started = false;

    void doAccept()
    {
        acceptor->async_accept(net::make_strand(ioc), [this](beast::error_code ec, tcp::socket socket) {
            if (ec) {
                if (ec == net::error::operation_aborted || !acceptor->is_open())
                    return;
                return doAccept(); // e.g. EMFILE: keep serving the open connections
            }
            onAccept(std::move(socket));
            doAccept();
        });
    }

    void onAccept(tcp::socket socket)
    {
        core.accepted.fetch_add(1, std::memory_order_relaxed);
        beast::error_code ec;
        socket.set_option(tcp::no_delay(true), ec);
        if (core.open.load(std::memory_order_relaxed) >= core.opt.limits.maxConnections) {
            core.rejected.fetch_add(1, std::memory_order_relaxed);
            if (sslCtx) {
                socket.close(ec);
                return;
            }
            auto sock = std::make_shared<tcp::socket>(std::move(socket));
            auto msg = std::make_shared<std::string>(
                core.response(503, "Service Unavailable", "application/json",
                              errorBody(503, "Too many connections", "ServiceUnavailableError"), false, {}));
            net::async_write(*sock, net::buffer(*msg), [sock, msg](beast::error_code, std::size_t) {
                beast::error_code e;
                sock->shutdown(tcp::socket::shutdown_both, e);
                sock->close(e);
            });
            return;
        }
        if (sslCtx) {
            std::make_shared<Session<beast::ssl_stream<beast::tcp_stream>>>(
                core, beast::ssl_stream<beast::tcp_stream>(beast::tcp_stream(std::move(socket)), *sslCtx))
                ->run();
        } else {
            std::make_shared<Session<beast::tcp_stream>>(core, beast::tcp_stream(std::move(socket)))->run();
        }
    }
};

namespace {

// Replaces the model's template by the named one when asked; says which is used.
std::string chatTemplateChoice(ChatTemplate &chat, const SimServerOptions &o)
{
    const std::string own = chat.name();
    if (o.chatTemplate.empty() || o.chatTemplate == own)
        return own;
    if (auto other = ChatTemplate::named(o.chatTemplate, o.chatTemplateDate)) {
        chat = *other;
        return o.chatTemplate + ", not the model's " + own;
    }
    return own + "; the requested " + o.chatTemplate + " is not a known template";
}

} // namespace

SimServer::SimServer(SimServerOptions options)
    : d(std::make_unique<Impl>())
{
    d->core.opt = std::move(options);
    auto &o = d->core.opt;
    o.timeScale = o.timeScale > 0 ? o.timeScale : 1.0;
    d->core.modelName = o.servedModelName.empty() ? o.model.name : o.servedModelName;
    d->core.maxModelLen = o.model.maxContext > 0 ? o.model.maxContext : 131072;
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", o.timeScale);
    d->core.timeScaleText = buf;
    d->core.rng.seed(o.seed);
    SchedulerConfig sc;
    sc.timeScale = o.timeScale;
    sc.jitter = o.jitter;
    sc.slowdownPct = o.slowdownPct;
    sc.slowdownFactor = o.slowdownFactor;
    sc.slowdownAfterS = o.slowdownAfterS;
    sc.slowdownPerHour = o.slowdownPerHour;
    sc.fixedTtftMs = o.fixedTtftMs;
    sc.fixedItlMs = o.fixedItlMs;
    sc.seed = o.seed;
    // The budget is per engine (vLLM's max_num_batched_tokens applies per GPU group); the simulated pool
    // spans all GPUs of the deployment, so its budget scales with them — else 8 GPUs with 16,384 running
    // sequences could never prefill another prompt (decode tokens alone would exceed 8,192).
    const int budgetGpus = o.prefillGpus > 0 && o.decodeGpus > 0 ? o.prefillGpus : std::max(1, o.gpus);
    sc.tokenBudget = o.limits.tokenBudget * budgetGpus;
    sc.maxWaiting = o.limits.maxWaiting;
    sc.prefixBlockTokens = std::max(0, o.prefixBlockTokens);
    if (o.promptTokenCounter) {
        d->core.promptCounting = "custom counter";
    } else if (!o.tokenizer.empty()) {
        // "auto": the model's tokenizer if fetched; a failure leaves bytes/4 and says why.
        auto store = TokenizerStore::open(o.tokenizerDir);
        Result<std::shared_ptr<const BpeTokenizer>> tok =
            store ? store->load(o.tokenizer == "auto" ? o.model.name : o.tokenizer)
                  : Result<std::shared_ptr<const BpeTokenizer>>(store.error());
        if (tok) {
            d->core.tok = *tok;
            auto name = store->tokenizerName(o.tokenizer == "auto" ? o.model.name : o.tokenizer);
            d->core.chat = ChatTemplate::forModel(**tok, o.model.name, o.chatTemplateDate);
            d->core.promptCounting = "tokenizer " + (name ? *name : (*tok)->name()) + " (chat template " +
                                     chatTemplateChoice(d->core.chat, o) + ")";
        } else {
            d->core.promptCounting = "bytes/4 (" + tok.error().message + ")";
        }
    }
    if (o.prefillGpus > 0 && o.decodeGpus > 0) {
        d->prefillModel =
            std::make_unique<PerformanceModel>(o.model, o.gpu, o.prefillGpus, o.precision, o.constants);
        d->model = std::make_unique<PerformanceModel>(o.model, o.gpu, o.decodeGpus, o.precision, o.constants);
        d->core.scheduler = std::make_unique<BatchScheduler>(*d->prefillModel, *d->model, sc);
    } else {
        d->model = std::make_unique<PerformanceModel>(o.model, o.gpu, o.gpus, o.precision, o.constants);
        d->core.scheduler = std::make_unique<BatchScheduler>(*d->model, sc);
    }
}

SimServer::~SimServer()
{
    stop();
}

Result<SimServerOptions> SimServer::optionsFromCatalog(const std::string &model, const std::string &gpu,
                                                       int gpus, const std::string &precision)
{
    const auto &cat = Catalog::builtin();
    const ModelSpec *m = cat.model(model);
    if (!m) {
        std::string known;
        for (const auto &x : cat.models())
            known += (known.empty() ? "" : ", ") + x.name;
        return makeError(ErrorCode::NotFound, "unknown model \"" + model + "\" (catalog: " + known + ")");
    }
    const GpuSpec *g = cat.gpu(gpu);
    if (!g) {
        std::string known;
        for (const auto &x : cat.gpus())
            known += (known.empty() ? "" : ", ") + x.name;
        return makeError(ErrorCode::NotFound, "unknown GPU \"" + gpu + "\" (catalog: " + known + ")");
    }
    auto p = parsePrecision(precision);
    if (!p)
        return p.error();
    if (gpus < 1)
        return makeError(ErrorCode::InvalidInput, "--gpus must be at least 1");
    SimServerOptions o;
    o.model = *m;
    o.gpu = *g;
    o.gpus = gpus;
    o.precision = *p;
    return o;
}

Result<int> SimServer::start(const std::string &host, int port)
{
    if (d->started)
        return d->port;
    auto &o = d->core.opt;
    if (!o.groundTruthPath.empty()) {
        if (auto s = d->core.groundTruth.open(o.groundTruthPath); !s)
            return s.error();
    }
    if (!SimDetail::timingEmitOf(o.serverTiming, d->core.timing))
        return makeError(ErrorCode::InvalidInput,
                         "unknown server timing format \"" + o.serverTiming +
                             "\" (llamacpp, vllm, sglang, dynamo-nvext, dynamo-trace, trtllm-perf)");
    if (d->core.timing == SimDetail::TimingEmit::DynamoTrace) {
        if (o.requestTracePath.empty())
            return makeError(ErrorCode::InvalidInput,
                             "the dynamo-trace server timing needs a request trace file");
        if (auto s = d->core.requestTrace.open(o.requestTracePath); !s)
            return s.error();
    }
    {
        auto &k = d->core.serverClock;
        k.baseNs = SimDetail::nowNs();
        k.epochMinusSteadyS = double(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                         std::chrono::system_clock::now().time_since_epoch())
                                         .count() -
                                     k.baseNs) /
                              1e9;
        k.offsetS = o.serverClockOffsetMs / 1e3;
        k.drift = o.serverClockDriftPpm * 1e-6;
    }
    try {
        if (!o.tlsCertFile.empty() || !o.tlsKeyFile.empty()) {
            if (o.tlsCertFile.empty() || o.tlsKeyFile.empty())
                return makeError(ErrorCode::InvalidInput, "TLS needs both a certificate and a key file");
            d->sslCtx.emplace(ssl::context::tls_server);
            d->sslCtx->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 |
                                   ssl::context::no_sslv3);
            d->sslCtx->use_certificate_chain_file(o.tlsCertFile);
            d->sslCtx->use_private_key_file(o.tlsKeyFile, ssl::context::pem);
        }
        beast::error_code ec;
        auto addr = net::ip::make_address(host, ec);
        if (ec)
            return makeError(ErrorCode::InvalidInput, "bad listen address \"" + host + "\": " + ec.message());
        d->acceptor.emplace(d->ioc);
        tcp::endpoint ep(addr, std::uint16_t(port));
        d->acceptor->open(ep.protocol());
        d->acceptor->set_option(net::socket_base::reuse_address(true));
        d->acceptor->bind(ep, ec);
        if (ec)
            return makeError(ErrorCode::Network,
                             "cannot listen on " + host + ":" + std::to_string(port) + ": " + ec.message());
        d->acceptor->listen(4096);
        d->port = d->acceptor->local_endpoint().port();
    } catch (const std::exception &e) {
        return makeError(ErrorCode::InvalidInput,
                         std::string("cannot start the simulated endpoint: ") + e.what());
    }
    if (o.notReadyS > 0)
        d->core.readyAtNs = std::chrono::steady_clock::now().time_since_epoch().count() +
                            static_cast<std::int64_t>(o.notReadyS * 1e9);
    d->core.scheduler->start();
    d->work.emplace(net::make_work_guard(d->ioc));
    d->doAccept();
    const int n = std::max(1, o.threads);
    for (int i = 0; i < n; ++i)
        d->threads.emplace_back([this] {
            // "tl-sim…": a client running this server in its own process leaves these threads out of its
            // own CPU figure (core/engine/processstats.h).
            pthread_setname_np(pthread_self(), "tl-sim-io");
            d->ioc.run();
        });
    d->started = true;
    return d->port;
}

void SimServer::stop()
{
    if (!d->started)
        return;
    d->started = false;
    net::post(d->ioc, [this] {
        beast::error_code ec;
        if (d->acceptor)
            d->acceptor->close(ec);
    });
    d->core.scheduler->stop();
    d->work.reset();
    d->ioc.stop();
    for (auto &t : d->threads)
        t.join();
    d->threads.clear();
    d->acceptor.reset();
    d->ioc.restart();
    d->core.groundTruth.close();
    d->core.requestTrace.close();
}

int SimServer::port() const
{
    return d->port;
}

bool SimServer::tls() const
{
    return d->sslCtx.has_value();
}

const SimServerOptions &SimServer::options() const
{
    return d->core.opt;
}

const PerformanceModel &SimServer::model() const
{
    return *d->model;
}

OperatingPoint SimServer::predictedCapacity(int isl, int osl, int concurrency) const
{
    return d->model->operatingPoint(isl, osl, concurrency);
}

std::string SimServer::promptCounting() const
{
    return d->core.promptCounting;
}

std::string SimServer::capacitySummary() const
{
    const auto &o = d->core.opt;
    std::string out;
    char line[256];
    const auto &m = *d->model;
    std::snprintf(line, sizeof line, "deployment: %s on %d× %s %s%s\n", o.model.name.c_str(),
                  d->prefillModel ? o.prefillGpus + o.decodeGpus : o.gpus, o.gpu.name.c_str(),
                  precisionName(o.precision),
                  d->prefillModel ? (" (" + std::to_string(o.prefillGpus) + " prefill + " +
                                     std::to_string(o.decodeGpus) + " decode)")
                                        .c_str()
                                  : "");
    out += line;
    std::snprintf(line, sizeof line, "KV capacity: %.0f tokens, max running sequences %d, max_model_len %d\n",
                  m.kvCapacityTokens(), m.maxSeqs(), d->core.maxModelLen);
    out += line;
    const std::pair<int, int> shapes[] = {{1000, 1000}, {128, 128}, {8000, 512}, {512, 8000}};
    for (auto [isl, osl] : shapes) {
        const auto op = m.operatingPoint(isl, osl);
        std::snprintf(
            line, sizeof line,
            "predicted capacity ISL %d / OSL %d: B=%d, %.0f output tok/s (%.0f per GPU), step %.1f ms, "
            "prefill %.1f ms\n",
            isl, osl, op.batch, op.outputTokPerS, op.outputTokPerSPerGpu, op.decodeStepS * 1e3,
            op.prefillS * 1e3);
        out += line;
    }
    if (o.slowdownPct > 0) {
        std::snprintf(
            line, sizeof line,
            "slowdown: every step takes %g %% longer (the predicted figures above are without it)\n",
            o.slowdownPct);
        out += line;
    }
    if (o.slowdownFactor != 1) {
        std::snprintf(line, sizeof line,
                      "slowdown after %g s: every step from %g model seconds after start takes %g x as long "
                      "(not in the predicted figures above)\n",
                      o.slowdownAfterS, o.slowdownAfterS, o.slowdownFactor);
        out += line;
    }
    if (o.slowdownPerHour != 0) {
        std::snprintf(line, sizeof line,
                      "slowdown drift: every step takes (1 + %g x model hours since start) x as long (not in "
                      "the predicted figures above)\n",
                      o.slowdownPerHour);
        out += line;
    }
    if (o.fixedTtftMs > 0 || o.fixedItlMs > 0) {
        std::snprintf(line, sizeof line,
                      "fixed latency: first token %g ms after arrival, then one every %g ms (model ms), "
                      "whatever the load; the predicted figures above are not used\n",
                      o.fixedTtftMs, o.fixedItlMs);
        out += line;
    }
    out +=
        "prompt tokens: " + d->core.promptCounting + "; prefix caching: " +
        (o.prefixBlockTokens > 0 ? "blocks of " + std::to_string(o.prefixBlockTokens) + " tokens" : "off") +
        "\n";
    return out;
}

SimServerStats SimServer::stats() const
{
    SimServerStats s;
    s.connectionsAccepted = d->core.accepted.load();
    s.connectionsRejected = d->core.rejected.load();
    s.connectionsOpen = d->core.open.load();
    s.requests = d->core.requests.load();
    s.tokensWritten = d->core.tokensWritten.load();
    s.writes = d->core.writes.load();
    s.latenessP50Ms = d->core.lateness.percentileMs(0.50);
    s.latenessP99Ms = d->core.lateness.percentileMs(0.99);
    s.latenessMaxMs = d->core.lateness.maxMs();
    return s;
}

SimMetrics::Totals SimServer::totals() const
{
    return d->core.metrics.totals();
}

SchedulerGauges SimServer::gauges() const
{
    return d->core.scheduler->gauges();
}

std::string SimServer::metricsText() const
{
    return d->core.metrics.render(d->core.scheduler->gauges(), d->core.modelName,
                                  d->core.opt.legacyMetricNames);
}

} // namespace Throughline
