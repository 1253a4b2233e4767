// `throughline-cli tokenize --model MODEL [--ids] [--as-text] [--dir D] FILE|-`: token count of a text
// with a model's own tokenizer (text tokens only: no BOS, no chat template).
#include "command.h"

#include "core/tokenizer/tokenizerstore.h"
#include "core/util/exitcodes.h"

#include <nlohmann/json.hpp>

#include <QFile>

#include <cstdio>

namespace Throughline::Cli {
namespace {

int runTokenize(Context &ctx)
{
    QCommandLineParser parser;
    ctx.setupParser(
        parser,
        u"Count the tokens of a text with a model's tokenizer (text only: no BOS, no chat template).\n"
        "MODEL is a catalog model (e.g. gpt-oss-120b), a tokenizer name (llama3_1, gptoss, deepseek_v3,\n"
        "o200k_base, cl100k_base) or a path to a tokenizer.json / o200k_base.tiktoken file."_qs,
        u"FILE"_qs, u"Text file to tokenize ('-' reads stdin)."_qs);
    parser.addOption({u"model"_qs, u"Model, tokenizer name or tokenizer file."_qs, u"model"_qs});
    parser.addOption({u"ids"_qs, u"Print the token ids as one JSON array instead of the count."_qs});
    parser.addOption({u"as-text"_qs, u"Treat special-token text such as <|endoftext|> as ordinary text."_qs});
    parser.addOption(
        {u"dir"_qs,
         u"Tokenizer cache directory (default: THROUGHLINE_TOKENIZER_DIR, else the user cache)."_qs,
         u"dir"_qs});
    if (const int rc = ctx.parse(parser); rc >= 0)
        return rc;
    const QStringList pos = parser.positionalArguments();
    if (pos.size() != 1)
        return ctx.usageError(pos.isEmpty() ? u"missing FILE (use - for stdin)"_qs
                                            : u"expected one FILE, got "_qs + QString::number(pos.size()));
    if (!parser.isSet(u"model"_qs))
        return ctx.usageError(u"--model is required"_qs);

    QFile in;
    const bool useStdin = pos.front() == u"-";
    if (useStdin ? !in.open(stdin, QIODevice::ReadOnly)
                 : (in.setFileName(pos.front()), !in.open(QIODevice::ReadOnly))) {
        std::fprintf(stderr, "throughline-cli tokenize: cannot read %s: %s\n",
                     pos.front().toLocal8Bit().constData(), in.errorString().toLocal8Bit().constData());
        return ExitBadInput;
    }
    const QByteArray text = in.readAll();

    auto store = TokenizerStore::open(parser.value(u"dir"_qs).toStdString());
    if (!store) {
        std::fprintf(stderr, "throughline-cli tokenize: %s\n", store.error().message.c_str());
        return ExitRuntime;
    }
    const std::string model = parser.value(u"model"_qs).toStdString();
    auto tok = store->load(model);
    if (!tok) {
        std::fprintf(stderr, "throughline-cli tokenize: %s\n", tok.error().message.c_str());
        // A missing cache is a setup problem (exit 3); an unknown model or a broken file is bad input.
        const bool notFetched = tok.error().message.find("tokenizers fetch") != std::string::npos;
        return notFetched ? ExitRuntime : ExitBadInput;
    }
    const SpecialTokens mode = parser.isSet(u"as-text"_qs) ? SpecialTokens::AsText : SpecialTokens::Recognize;
    const std::vector<TokenId> ids =
        (*tok)->encode(std::string_view(text.constData(), static_cast<std::size_t>(text.size())), mode);
    const bool wantIds = parser.isSet(u"ids"_qs);
    if (ctx.global().json) {
        auto name = store->tokenizerName(model); // a file path has no catalog name
        nlohmann::json out{{"model", model},
                           {"tokenizer", name ? *name : (*tok)->name()},
                           {"bytes", text.size()},
                           {"tokens", ids.size()}};
        if (wantIds)
            out["ids"] = ids;
        std::fprintf(ctx.machine(), "%s\n", out.dump().c_str());
    } else if (wantIds) {
        std::fprintf(stdout, "%s\n", nlohmann::json(ids).dump().c_str());
    } else {
        std::fprintf(stdout, "%zu\n", ids.size());
    }
    return ExitOk;
}

} // namespace

THROUGHLINE_CLI_COMMAND("tokenize", "count a text's tokens with a model's tokenizer (--ids prints them)",
                        runTokenize);

} // namespace Throughline::Cli
