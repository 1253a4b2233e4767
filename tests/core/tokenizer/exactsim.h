#pragma once
// Shared by tst_exactprompts and tst_exactworkloads: the fetched tokenizer cache of the build tree, an
// in-process SimServer launcher that counts prompts with the model's own tokenizer (chat: templated) and
// prefix caching in 16-token blocks, and a skip when the cache is incomplete.
#include "core/engine/runcontroller.h"
#include "core/sim/simserver.h"
#include "core/tokenizer/tokenizerstore.h"

#include <QString>
#include <QTest>

#include <memory>
#include <string>

namespace Throughline::ExactTest {

inline const std::string kCache = THROUGHLINE_TOKENIZER_TEST_CACHE;

inline SimLauncher inProcessSim(double timeScale)
{
    return [timeScale](const Scenario &sc, int) -> Result<SimulatedEndpoint> {
        auto o = SimServer::optionsFromCatalog(sc.model.name, sc.gpu.name, std::max(1, sc.deployment.gpus),
                                               sc.deployment.precision);
        if (!o)
            return o.error();
        o->timeScale = timeScale;
        o->tokenizer = "auto";
        o->tokenizerDir = kCache;
        o->prefixBlockTokens = 16;
        auto server = std::make_shared<SimServer>(std::move(*o));
        if (server->promptCounting().rfind("tokenizer ", 0) != 0)
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
