#pragma once
// Shared by tst_exactprompts and tst_exactworkloads: the fetched tokenizer cache of the build tree, an
// in-process SimServer launcher that counts prompts with the model's own tokenizer (chat: templated) and
// prefix caching in 16-token blocks, and a skip when the cache is incomplete.
#include "common/runalone.h"
#include "core/campaign/catalog.h"
#include "core/run/runcontroller.h"
#include "core/engine/tokenizerpromptsource.h"
#include "core/sim/simserver.h"
#include "core/tokenizer/tokenizerstore.h"

#include <QString>
#include <QTest>

#include <functional>
#include <memory>
#include <string>

namespace Throughline::ExactTest {

inline const std::string kCache = THROUGHLINE_TOKENIZER_TEST_CACHE;

// chatTemplate: SimServerOptions::chatTemplate ("" = the model's own, the client's mirror). tweak: changes
// the options last (e.g. countEndpoints; tokenizer "" = a server that counts bytes/4).
inline SimLauncher inProcessSim(double timeScale, std::string chatTemplate = {},
                                std::function<void(SimServerOptions &)> tweak = {})
{
    return [timeScale, chatTemplate, tweak](const Scenario &sc, int) -> Result<SimulatedEndpoint> {
        auto o = SimServer::optionsFromCatalog(sc.model.name, sc.gpu.name, std::max(1, sc.deployment.gpus),
                                               sc.deployment.precision);
        if (!o)
            return o.error();
        o->timeScale = timeScale;
        o->tokenizer = "auto";
        o->tokenizerDir = kCache;
        o->prefixBlockTokens = 16;
        o->chatTemplate = chatTemplate;
        if (tweak)
            tweak(*o);
        const bool counts = !o->tokenizer.empty();
        auto server = std::make_shared<SimServer>(std::move(*o));
        if (counts && server->promptCounting().rfind("tokenizer ", 0) != 0)
            return makeError(ErrorCode::Internal, "simulator counts prompts by " + server->promptCounting());
        auto port = server->start("127.0.0.1", 0);
        if (!port)
            return port.error();
        SimulatedEndpoint e;
        e.baseUrl = "http://127.0.0.1:" + std::to_string(*port);
        e.timeScale = timeScale;
        e.owner = server;
        return e;
    };
}

// One closed-loop point of `requests` at concurrency c on the simulated endpoint, fixed ISL and a 2-token
// OSL (the prompt is what these tests check), no warm-up, a fixed seed; model from the catalog.
inline Scenario exactScenario(const Scenario &base, const std::string &model, int isl, int c, int requests)
{
    Scenario s = base;
    const ModelSpec *m = Catalog::builtin().model(model);
    if (m)
        s.model = *m;
    s.id = model + "/exact/" + std::to_string(isl);
    s.endpoint.kind = Endpoint::Kind::Simulated;
    s.endpoint.servedModel.clear();
    s.endpoint.telemetryIntervalS = 0;
    s.phase.isl = isl;
    s.phase.osl = 2;
    s.phase.islDist = LengthDist{};
    s.phase.oslDist = LengthDist{};
    s.plan.mode = LoadPlan::Mode::Closed;
    s.plan.concurrencies = {c};
    s.plan.requestCount = requests;
    s.plan.warmupRequests = 0;
    s.plan.minWindowS = 0.01;
    s.plan.maxDurationS = 120;
    s.plan.requestTimeoutS = 60;
    s.plan.seed = 20261129;
    return s;
}

// Runs `s` alone on inProcessSim(timeScale), telemetry scraping off; exactPrompts: prompts from
// exactPromptSourceFactory(kCache) (else the workload's own source). An error when the run fails or the
// scenario aborts. simChatTemplate: the simulator's chat template (inProcessSim).
inline Result<RunOutcome> runAlone(const Scenario &s, double timeScale, bool exactPrompts,
                                   std::string simChatTemplate = {})
{
    RunOptions opt;
    opt.simLauncher = inProcessSim(timeScale, std::move(simChatTemplate));
    if (exactPrompts)
        opt.promptFactory = exactPromptSourceFactory(kCache);
    opt.scrapeTelemetry = false;
    // Lengths are what these tests check: the stall limit is model time (30 s = 30 ms wall at time scale
    // 1000), and a loaded 2-core machine pauses a stream that long (gpt-oss-120b chat ISL 8000 failed so at
    // load 17).
    opt.stallTimeoutS = 3600;
    return TestSupport::runAlone(s, opt);
}

inline bool cacheComplete()
{
    auto store = TokenizerStore::open(kCache);
    if (!store)
        return false;
    for (const char *t : {"llama3_1", "gptoss", "deepseek_v3"})
        if (!store->load(t))
            return false;
    return true;
}

} // namespace Throughline::ExactTest

#define REQUIRE_TOKENIZER_CACHE()                                                                            \
    do {                                                                                                     \
        if (!::Throughline::ExactTest::cacheComplete())                                                      \
            QSKIP(qPrintable(                                                                                \
                QStringLiteral("tokenizer cache %1 is empty or incomplete: run `throughline-cli tokenizers " \
                               "fetch --dir %1` (or the tst_tokenizerfetch fixture) first")                  \
                    .arg(QString::fromStdString(::Throughline::ExactTest::kCache))));                        \
    } while (false)
