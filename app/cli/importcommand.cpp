// `throughline-cli import FILE [--format auto|vllm|aiperf|genai-perf|tlrun|mlperf-endpoints]`: one
// transaction per file (a directory of MLPerf Endpoints result_summary.json files is one run).
#include "command.h"
#include "storagecli.h"

#include "core/storage/resultimporter.h"
#include "core/util/exitcodes.h"

#include <nlohmann/json.hpp>

namespace Throughline::Cli {
namespace {

int runImport(Context &ctx)
{
    QCommandLineParser parser;
    parser.addOption({u"format"_qs,
                      u"auto (default), vllm, aiperf, genai-perf, tlrun or mlperf-endpoints."_qs,
                      u"FORMAT"_qs, u"auto"_qs});
    ctx.setupParser(parser, u"Import a result file into the history database (the whole file or nothing)."_qs,
                    u"FILE"_qs,
                    u"Result file: .tlrun bundle, vLLM bench serve JSON/JSONL, AIPerf JSON/JSONL/CSV, "
                    u"GenAI-Perf JSON, MLPerf "
                    u"Endpoints result_summary.json or a directory of them."_qs);
    if (const int rc = ctx.parse(parser); rc >= 0)
        return rc;
    const QStringList pos = parser.positionalArguments();
    if (pos.size() != 1)
        return ctx.usageError(pos.isEmpty() ? u"missing FILE"_qs : u"expected one FILE"_qs);
    auto format = ResultImporter::parseFormat(parser.value(u"format"_qs).toStdString());
    if (!format)
        return reportError(ctx, format.error());
    auto sum = ResultImporter::importFile(pos.front().toStdString(), *format, historyPath(ctx));
    if (!sum)
        return reportError(ctx, sum.error());
    if (ctx.global().json)
        std::fprintf(ctx.machine(), "%s\n",
                     nlohmann::json{{"run_id", sum->uuid},
                                    {"format", sum->format},
                                    {"scenarios", sum->scenarios},
                                    {"points", sum->points},
                                    {"requests", sum->requests}}
                         .dump(2)
                         .c_str());
    std::fprintf(ctx.human(), "imported %s (%s): %d scenario%s, %d point%s, %zu request%s\n",
                 sum->uuid.c_str(), sum->format.c_str(), sum->scenarios, sum->scenarios == 1 ? "" : "s",
                 sum->points, sum->points == 1 ? "" : "s", sum->requests, sum->requests == 1 ? "" : "s");
    return ExitOk;
}

} // namespace

THROUGHLINE_CLI_COMMAND("import",
                        "import a bundle or a vLLM / AIPerf / GenAI-Perf / MLPerf Endpoints result file",
                        runImport);

} // namespace Throughline::Cli
