// `throughline-cli validate FILE`: every problem of a campaign at once; exit 0 when clean, else 2.
#include "campaignfile.h"
#include "command.h"

#include "core/campaign/matrixexpander.h"
#include "core/util/exitcodes.h"

#include <cstdio>

namespace Throughline::Cli {
namespace {

int runValidate(Context &ctx)
{
    QCommandLineParser parser;
    ctx.setupParser(
        parser, u"Validate a campaign file and report every problem as FILE:LINE:COL: /pointer: message."_qs,
        u"FILE"_qs, u"Campaign JSON file ('-' reads stdin)."_qs);
    if (const int rc = ctx.parse(parser); rc >= 0)
        return rc;
    const QStringList pos = parser.positionalArguments();
    if (pos.size() != 1)
        return ctx.usageError(pos.isEmpty() ? u"missing FILE"_qs
                                            : u"expected one FILE, got "_qs + QString::number(pos.size()));

    auto loaded = loadCampaignFile(ctx, pos.front());
    if (!loaded)
        return ExitBadInput;
    const int n = printProblems(ctx, *loaded);
    size_t scenarios = 0;
    if (n == 0 && loaded->outcome.campaign) {
        auto r = MatrixExpander().expand(*loaded->outcome.campaign);
        scenarios = r ? r->size() : 0;
    }
    if (ctx.global().json) {
        nlohmann::json out{{"file", loaded->path.toStdString()},
                           {"ok", n == 0},
                           {"problems", problemsJson(*loaded)},
                           {"scenarios", scenarios}};
        std::fprintf(ctx.machine(), "%s\n",
                     out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
    }
    const std::string file = loaded->path.toStdString();
    if (n == 0) {
        std::fprintf(ctx.human(), "%s: %s (%zu scenario%s)\n", file.c_str(),
                     ctx.paint(ctx.human(), "32", "ok").c_str(), scenarios, scenarios == 1 ? "" : "s");
        return ExitOk;
    }
    std::fprintf(stderr, "%s: %d problem%s\n", file.c_str(), n, n == 1 ? "" : "s");
    return ExitBadInput;
}

} // namespace

THROUGHLINE_CLI_COMMAND("validate", "check a campaign file; report every problem with line and column",
                        runValidate);

} // namespace Throughline::Cli
